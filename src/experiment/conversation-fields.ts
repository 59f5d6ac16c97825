import { scoreTurns, type ConversationRowFields, type ConversationSettings } from '../conversation/index.js';
import { evalTurn } from '../conversation/score-turns.js';
import type { DatasetRow } from '../dataset/types.js';
import type { ChatMessage } from '../prompt/types.js';
import type { EvalParams, ScoredEval } from '../scoring/types.js';
import type { RunListener } from './events.js';
import type { BoundEval } from '../scoring/types.js';
import type { RowResult } from './types.js';

/**
 * Fills a conversation row's result: the system under test's last reply is its output, its
 * turns' tokens, cost, latency and retries are summed, the simulator's are kept apart. Returns
 * the transcript, which the row's evals see as `messages`.
 */
export function conversationFields(base: RowResult, ran: ConversationRowFields): ChatMessage[] {
  const { outcome } = ran;
  base.output = ran.output;
  base.latencyMs = ran.latencyMs;
  base.usage = ran.usage;
  base.cached = ran.cached;
  base.retries = ran.retries;
  if (ran.costUsd !== undefined) base.costUsd = ran.costUsd;
  if (ran.agent !== undefined) base.agent = ran.agent;
  if (ran.toolCalls !== undefined) base.toolCalls = ran.toolCalls;
  base.conversation = { messages: outcome.messages, turns: outcome.turns, endedBy: outcome.endedBy };
  if (outcome.simulator !== undefined) base.simulator = outcome.simulator;
  return outcome.messages.map(({ role, content }) => ({ role, content }));
}

/** What a conversation row's evals get besides the usual params. */
export function conversationParams(base: RowResult, settings: ConversationSettings | undefined, system?: string): Pick<EvalParams, 'turns' | 'conversation'> {
  if (base.conversation === undefined) return {};
  return {
    turns: base.conversation.turns.map(evalTurn),
    conversation: {
      endedBy: base.conversation.endedBy,
      ...(settings?.simulator === undefined ? {} : { maxTurns: settings.maxTurns }),
      ...(system === undefined ? {} : { system }),
    },
  };
}

/** The text of the prompt's system message, if it has one. */
export function systemText(messages: readonly ChatMessage[]): string | undefined {
  const system = messages.find((message) => message.role === 'system');
  if (system === undefined) return undefined;
  return typeof system.content === 'string' ? system.content : system.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** What scoring a row's turns needs of the row pipeline. */
export interface TurnScoring {
  conversation?: { settings: ConversationSettings | undefined; turnEvals: BoundEval[] };
  evalTimeoutMs: number;
  emit: RunListener;
}

/** The row's turn evals (`test_settings.turn_evals`): one summary per eval, kept per turn on the row's turns. */
export async function scoreRowTurns(pipeline: TurnScoring, base: RowResult, row: DatasetRow, repeat: number, signal: AbortSignal, system?: string): Promise<Array<[string, ScoredEval]>> {
  const evals = pipeline.conversation?.turnEvals ?? [];
  if (evals.length === 0) return [];
  const turns = base.conversation?.turns;
  if (turns === undefined) return evals.map((bound) => [bound.name, { skipped: true, reason: 'not a conversation row' }]);
  const summaries = await scoreTurns(
    evals,
    turns,
    {
      input: row.input,
      ...(row.hasExpectedOutput ? { expectedOutput: row.expectedOutput } : {}),
      metadata: row.metadata,
      toolCalls: [],
      usage: undefined,
      latencyMs: undefined,
      costUsd: undefined,
      ...conversationParams(base, pipeline.conversation?.settings, system),
    },
    { timeoutMs: pipeline.evalTimeoutMs, signal },
  );
  const scored: Array<[string, ScoredEval]> = [];
  for (const bound of evals) {
    const result = summaries[bound.name] ?? { skipped: true };
    const told = pipeline.emit({ type: 'eval-end', index: row.index, repeat, name: bound.name, result });
    if (told !== undefined) await told;
    scored.push([bound.name, result]);
  }
  return scored;
}
