import { isAgentmarkError } from '../errors/index.js';
import type { DatasetRow } from '../dataset/types.js';
import type { ModelRequest, ModelResponse } from '../model/types.js';
import type { LoadedPrompt, ChatMessage } from '../prompt/types.js';
import type { BoundEval } from '../scoring/index.js';
import { runEval } from '../scoring/index.js';
import type { ScoredEval } from '../scoring/types.js';
import type { RunListener } from './events.js';
import { rowTimeoutMs } from './row-timeout.js';
import type { JudgeSpend, RowResult } from './types.js';
import type { AgentRunner } from '../agent/index.js';
import { conversationRow, isConversationRow, type ConversationSettings } from '../conversation/index.js';
import { conversationFields, conversationParams, scoreRowTurns, systemText } from './conversation-fields.js';
import { completeRowEvals, type RowEvalSet } from './row-eval-set.js';

export interface RowPipeline {
  prompt: LoadedPrompt;
  /** Builds the model request from the rendered prompt (model override applied). */
  toRequest: (rendered: ReturnType<LoadedPrompt['render']>) => ModelRequest;
  /** One model call through the cache, retries and timeout; `onLive` when it goes to the model (see ModelCaller.call). */
  call: (request: ModelRequest, repeat: number, signal: AbortSignal, timeoutMs?: number, onLive?: () => void) => Promise<ModelResponse>;
  /** The per-call timeout of rows without their own `timeout_seconds`. */
  timeoutMs?: number;
  evals: BoundEval[];
  /** The evals dataset rows add (`evals`, `threshold`); without it every row runs `evals`. */
  rowEvals?: RowEvalSet;
  evalTimeoutMs: number;
  emit: RunListener;
  /** A config agent runs the rows instead of one call of the prompt (`test_settings.agent`, `--agent`). */
  agent?: AgentRunner;
  /** Never call a model; rows must carry `output`. */
  scoreOnly: boolean;
  /** Runs a row's evals and adds up what their LLM-judge calls spent (see ModelCaller.meterJudges). */
  meterJudges?: <T>(fn: () => Promise<T>) => Promise<[T, JudgeSpend | undefined]>;
  /** Whether a failed call could not reach the server at all (the row is then held, see RowUnreachable). */
  isUnreachable?: (error: unknown) => boolean;
  /** Rows with a simulator or given `messages` run as conversations (src/conversation/). */
  conversation?: { settings: ConversationSettings | undefined; turnEvals: BoundEval[] };
}

/** Thrown inside a row when the run was interrupted: the row is not recorded, resume reruns it. */
export class RowAborted extends Error {}

/**
 * The row's call could not reach the server. `row` is the errored result, recorded only once the
 * server answers again (a passing glitch); if the circuit breaker opens instead, the row counts
 * as not run and `--resume` runs it.
 */
export class RowUnreachable extends Error {
  constructor(readonly row: RowResult) {
    super(row.error ?? 'unreachable');
  }
}

/**
 * One row × repeat: render, call the model (or take the row's pre-generated output), run every
 * eval. Failures of the row become an errored result; the run goes on. `onLive` is called when
 * the row's model call goes to the model (not answered by the cache).
 */
export async function processRow(
  pipeline: RowPipeline,
  row: DatasetRow,
  repeat: number,
  signal: AbortSignal,
  onLive?: () => void,
): Promise<RowResult> {
  const base = emptyResult(row, repeat);
  let messages: ChatMessage[] = [];
  // A conversation's evals see the transcript as `messages`; the role its system message gives, apart.
  let system: string | undefined;
  try {
    const rendered = pipeline.prompt.render(row.input);
    messages = rendered.messages ?? [];
    if (row.hasOutput) {
      base.output = row.output as RowResult['output'];
      base.pregenerated = true;
    } else if (pipeline.scoreOnly) {
      return { ...base, error: 'this row has no "output" to score', errorCode: 'DATASET_NO_OUTPUT' };
    } else if (pipeline.conversation !== undefined && isConversationRow(row, pipeline.conversation.settings)) {
      const ran = await conversationRow(pipeline, pipeline.conversation.settings, rendered, row, repeat, signal, onLive);
      system = systemText(messages);
      messages = conversationFields(base, ran);
      if (ran.outcome.error !== undefined) throw ran.outcome.error;
    } else if (pipeline.agent !== undefined) {
      const ran = await pipeline.agent.runRow(row, repeat, signal, rowTimeoutMs(row, pipeline.timeoutMs ?? 60_000), onLive);
      Object.assign(base, ran);
    } else {
      const timeoutMs = pipeline.timeoutMs === undefined ? undefined : rowTimeoutMs(row, pipeline.timeoutMs);
      const response = await pipeline.call(pipeline.toRequest(rendered), repeat, signal, timeoutMs, onLive);
      // Field by field, in this order (the order of a stored row's keys): no object per row to copy from.
      base.output = response.output;
      base.toolCalls = response.toolCalls;
      // A batch answer had no live call to time: no latency, as for pre-generated rows.
      if (response.batch) base.batch = true;
      else base.latencyMs = response.latencyMs;
      base.usage = response.usage;
      base.finishReason = response.finishReason;
      base.cached = response.cached;
      base.retries = response.retries;
      if (response.costUsd !== undefined) base.costUsd = response.costUsd;
      if (response.response !== undefined) base.response = response.response;
    }
  } catch (error) {
    if (signal.aborted) throw new RowAborted('interrupted');
    if (pipeline.isUnreachable?.(error)) throw new RowUnreachable(completeRowEvals(pipeline.rowEvals, row, { ...base, ...describeError(error) }, []));
    return completeRowEvals(pipeline.rowEvals, row, { ...base, ...describeError(error) }, []);
  }

  const output = base.output ?? '';
  const rowEvals = pipeline.rowEvals?.evalsFor(row);
  const scoreAll = (): Promise<Array<[string, ScoredEval]>> => Promise.all(
    (rowEvals?.map((e) => e.bound) ?? pipeline.evals).map(async (bound): Promise<[string, ScoredEval]> => {
      const result = await runEval(
        bound,
        {
          input: row.input,
          output,
          ...(row.hasExpectedOutput ? { expectedOutput: row.expectedOutput } : {}),
          metadata: row.metadata,
          messages,
          toolCalls: base.toolCalls,
          usage: base.usage,
          latencyMs: base.cached || base.pregenerated ? undefined : base.latencyMs,
          costUsd: base.costUsd,
          ...(base.agent === undefined ? {} : { agent: { modelCalls: base.agent.modelCalls, steps: base.agent.steps, toolCalls: base.agent.toolCalls, agentMs: base.agent.agentMs, ...(base.agent.peakMemoryMb === undefined ? {} : { peakMemoryMb: base.agent.peakMemoryMb }) } }),
          schema: bound.schema,
          ...conversationParams(base, pipeline.conversation?.settings, system),
        },
        { timeoutMs: pipeline.evalTimeoutMs, signal },
      );
      const told = pipeline.emit({ type: 'eval-end', index: row.index, repeat, name: bound.name, result });
      if (told !== undefined) await told;
      return [bound.name, result];
    }),
  ).then(async (scored) => [...scored, ...(await scoreRowTurns(pipeline, base, row, repeat, signal, system))]);
  const [results, judge] = pipeline.meterJudges ? await pipeline.meterJudges(scoreAll) : [await scoreAll(), undefined];
  if (judge !== undefined) base.judge = judge;
  if (signal.aborted && results.some(([, r]) => r.error !== undefined)) throw new RowAborted('interrupted');
  base.evals = Object.fromEntries(results);
  return completeRowEvals(pipeline.rowEvals, row, base, rowEvals ?? []);
}

/** The row's result before any call or eval: what an errored row is made of. */
export function emptyResult(row: DatasetRow, repeat: number): RowResult {
  return {
    index: row.index,
    line: row.line,
    repeat,
    input: row.input,
    ...(row.hasExpectedOutput ? { expectedOutput: row.expectedOutput } : {}),
    metadata: row.metadata,
    toolCalls: [],
    evals: {},
    cached: false,
    retries: 0,
  };
}

function describeError(error: unknown): { error: string; errorCode?: string; timedOut?: true } {
  if (isAgentmarkError(error)) {
    const where = error.where ? `${error.where}: ` : '';
    // The hint says how to fix it (e.g. which key to set); a row error has no other place for it.
    const hint = error.hint ? ` (${error.hint})` : '';
    return { error: `${where}${error.message}${hint}`, errorCode: error.code, ...(error.code === 'MODEL_TIMEOUT' || error.code === 'AGENT_TIMEOUT' ? { timedOut: true as const } : {}) };
  }
  return { error: error instanceof Error ? error.message : String(error) };
}
