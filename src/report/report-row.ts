import type { JudgeSpend, RowResult } from '../experiment/types.js';
import type { TokenUsage, ToolCallRecord } from '../model/types.js';
import type { ScoredEval } from '../scoring/types.js';
import type { AgentRowRecord } from '../agent/types.js';
import type { ConversationEnd, ConversationTurn, SimulatorSpend, TranscriptMessage } from '../conversation/types.js';

/** A conversation row's transcript in a report: its turns' evals in the report's eval shape. */
export interface ReportConversation {
  messages: TranscriptMessage[];
  turns: Array<Omit<ConversationTurn, 'evals'> & { evals?: Record<string, ReportEval> }>;
  endedBy: ConversationEnd;
}

/** One eval of a report row: every key present, `null` where the scorer gave none. */
export interface ReportEval {
  score: number | null;
  passed: boolean | null;
  label: string | null;
  reason: string | null;
  /** The score in [0, 1]. */
  normalized: number | null;
  /** Why the eval failed to run (threw, timed out, broke its schema). */
  error: string | null;
  /** The scorer declined to judge this row (e.g. latency of a cached answer). */
  skipped: boolean;
}

/**
 * One row of the `json` and `jsonl` reports. Every key is always there, in this order, with
 * `null` for "none", so a consumer can rely on the shape (README, "Report shape").
 */
export interface ReportRow {
  index: number;
  line: number;
  repeat: number;
  input: Record<string, unknown>;
  /** The dataset row's `expected_output`; null when it has none. */
  expectedOutput: unknown;
  metadata: Record<string, unknown>;
  /** null when the row errored before an output existed. */
  output: string | Record<string, unknown> | unknown[] | null;
  toolCalls: ToolCallRecord[];
  evals: Record<string, ReportEval>;
  error: string | null;
  errorCode: string | null;
  latencyMs: number | null;
  usage: TokenUsage | null;
  costUsd: number | null;
  /** What the row's LLM-judge calls spent (not in `usage` / `costUsd`); null when no judge was asked. */
  judge: JudgeSpend | null;
  finishReason: string | null;
  cached: boolean;
  /** Scored a pre-generated output; no model was called. */
  pregenerated: boolean;
  retries: number;
  /** The model call ran out of its time limit (`--timeout`, or the row's `timeout_seconds`). */
  timedOut: boolean;
  /** A warm-up call (`--warmup`, `--warmup-repeats`): left out of the latency statistics. */
  warmup: boolean;
  /** Answered by a Batch API job (`--batch`): no live latency. */
  batch: boolean;
  /** Failures of the row's `teardown` / `onFail` hooks; empty when none failed. */
  hookErrors: string[];
  /** What a config agent did on the row (its model calls, steps, tool calls, own time); null on a prompt row. */
  agent: AgentRowRecord | null;
  /** A conversation row's transcript, turns and end; null on other rows. */
  conversation: ReportConversation | null;
  /** What the conversation's simulated user spent (not in `usage` / `costUsd`); null without one. */
  simulator: SimulatorSpend | null;
}

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

function reportEval(result: ScoredEval): ReportEval {
  return {
    score: orNull(result.score),
    passed: orNull(result.passed),
    label: orNull(result.label),
    reason: orNull(result.reason),
    normalized: orNull(result.normalized),
    error: orNull(result.error),
    skipped: result.skipped ?? false,
  };
}

/** A stored row in the report's fixed shape. */
export function reportRow(row: RowResult): ReportRow {
  return {
    index: row.index,
    line: row.line,
    repeat: row.repeat,
    input: row.input,
    expectedOutput: orNull(row.expectedOutput),
    metadata: row.metadata ?? {},
    output: orNull(row.output),
    toolCalls: row.toolCalls ?? [],
    // An eval only other rows carry (their `evals`) is no eval of this row.
    evals: Object.fromEntries(Object.entries(row.evals ?? {}).filter(([, result]) => !result.absent).map(([name, result]) => [name, reportEval(result)])),
    error: orNull(row.error),
    errorCode: orNull(row.errorCode),
    latencyMs: orNull(row.latencyMs),
    usage: orNull(row.usage),
    costUsd: orNull(row.costUsd),
    judge: orNull(row.judge),
    finishReason: orNull(row.finishReason),
    cached: row.cached,
    pregenerated: row.pregenerated ?? false,
    retries: row.retries,
    timedOut: row.timedOut ?? false,
    warmup: row.warmup ?? false,
    batch: row.batch ?? false,
    hookErrors: row.hookErrors ?? [],
    agent: orNull(row.agent),
    conversation: row.conversation === undefined ? null : reportConversation(row.conversation),
    simulator: orNull(row.simulator),
  };
}

function reportConversation(conversation: NonNullable<RowResult['conversation']>): ReportConversation {
  return {
    messages: conversation.messages,
    turns: conversation.turns.map(({ evals, ...turn }) =>
      evals === undefined ? turn : { ...turn, evals: Object.fromEntries(Object.entries(evals).map(([name, result]) => [name, reportEval(result)])) },
    ),
    endedBy: conversation.endedBy,
  };
}
