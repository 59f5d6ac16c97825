import { runEval } from '../scoring/run-eval.js';
import type { BoundEval, EvalParams, EvalTurn, ScoredEval } from '../scoring/types.js';
import type { ChatMessage } from '../prompt/types.js';
import { summarizeTurns } from './summarize-turns.js';
import type { ConversationTurn } from './types.js';

/** The row's params every turn eval shares (input, expected output, metadata, schema...). */
export type TurnEvalBase = Omit<EvalParams, 'output' | 'messages' | 'turns' | 'schema'>;

/**
 * Runs each turn eval on each assistant turn the run produced (given turns are not judged),
 * with that turn as `output` and the transcript before it as `messages` and `turns`; stores the
 * results on the turns and returns one summary per eval for the row (see summarizeTurns).
 */
export async function scoreTurns(
  evals: readonly BoundEval[],
  turns: ConversationTurn[],
  base: TurnEvalBase,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<Record<string, ScoredEval>> {
  const judged = turns.filter((turn) => turn.role === 'assistant' && !turn.given);
  const perEval = new Map<string, Array<{ turn: number; result: ScoredEval }>>(evals.map((bound) => [bound.name, []]));
  await Promise.all(
    judged.map(async (turn) => {
      const before = turns.slice(0, turn.index);
      const messages: ChatMessage[] = before.map(({ role, content }) => ({ role, content }));
      const shown: EvalTurn[] = before.map(evalTurn);
      const results: Record<string, ScoredEval> = {};
      for (const bound of evals) {
        const result = await runEval(bound, { ...base, output: turn.content, messages, turns: shown, schema: bound.schema }, options);
        results[bound.name] = result;
        perEval.get(bound.name)?.push({ turn: turn.index, result });
      }
      turn.evals = results;
    }),
  );
  const summaries: Record<string, ScoredEval> = {};
  for (const bound of evals) {
    const results = (perEval.get(bound.name) ?? []).sort((a, b) => a.turn - b.turn);
    summaries[bound.name] = summarizeTurns(results);
  }
  return summaries;
}

export function evalTurn(turn: ConversationTurn): EvalTurn {
  return { index: turn.index, role: turn.role, content: turn.content, ...(turn.simulated ? { simulated: true as const } : {}), ...(turn.given ? { given: true as const } : {}) };
}
