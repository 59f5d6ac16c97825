import type { ModelRequest, ModelResponse, ResponseInfo, TokenUsage, ToolCallRecord } from '../model/types.js';
import type { RunAgreement } from '../scoring/agreement/run-agreement.js';
import type { EvalSummary } from '../scoring/eval-summary.js';
import type { ScoredEval } from '../scoring/types.js';
import type { AgentRowRecord } from '../agent/types.js';
import type { LatencySummary } from './latency-stats.js';
import type { ConversationRecord, SimulatorSpend } from '../conversation/types.js';

/** Computed by scoring (`summarizeEvals`); re-exported here with the run's other result types. */
export type { EvalSummary };

/** One row × repeat of an experiment, as appended to results.jsonl and given to reporters. */
export interface RowResult {
  /** Zero-based dataset row index. */
  index: number;
  /** 1-based line of the row in the dataset file. */
  line: number;
  /** Zero-based repeat number (`--repeat N`). */
  repeat: number;
  input: Record<string, unknown>;
  expectedOutput?: unknown;
  metadata: Record<string, unknown>;
  /** Text, object, or undefined when the row errored before an output existed. */
  output?: string | Record<string, unknown> | unknown[];
  toolCalls: ToolCallRecord[];
  /** By eval name, in the order of test_settings.evals. Empty with --skip-eval. */
  evals: Record<string, ScoredEval>;
  /** Why the row failed (render, model call, cache-only miss). */
  error?: string;
  errorCode?: string;
  /** The model call ran out of time (`--timeout`, `timeout_seconds`); `error` says after how long. */
  timedOut?: true;
  latencyMs?: number;
  /** When the row finished (ISO 8601), set as it is recorded; absent on runs stored before. */
  endedAt?: string;
  /** The model call's tokens (the row's LLM-judge calls are in `judge`). */
  usage?: TokenUsage;
  /** The model call's cost (the row's LLM-judge calls are in `judge`). */
  costUsd?: number;
  /** What the row's LLM-judge evals spent; absent when none called a model. */
  judge?: JudgeSpend;
  finishReason?: string;
  /** The provider's response id and answering model, when it said (a cached row: the original call's). */
  response?: ResponseInfo;
  cached: boolean;
  /** Scored a pre-generated output; no model was called. */
  pregenerated?: boolean;
  /** Answered by a Batch API job (`--batch`): no live latency. */
  batch?: boolean;
  /** Set when a config agent ran the row: its model calls, steps, tool calls and own time (`usage`, `costUsd` sum its calls). */
  agent?: AgentRowRecord;
  /** Failures of this row's `teardown` / `onFail` hooks (a failed `setup` is the row's `error`). */
  hookErrors?: string[];
  /** A warm-up call (`--warmup`, `--warmup-repeats`): made, but left out of latency statistics. */
  warmup?: true;
  retries: number;
  /** A conversation row: its transcript, turns (with their turn evals) and how it ended. */
  conversation?: ConversationRecord;
  /** What the conversation's simulated user spent (counted apart, like `judge`). */
  simulator?: SimulatorSpend;
}

/**
 * What LLM-judge calls spent, on one row or over a run. A judge answer from the response cache
 * counts in `calls` and `cached`, and costs nothing: tokens, cost and latency are those of the
 * calls made now (live, or answered by a `--batch` job at batch prices).
 */
export interface JudgeSpend {
  /** Judge answers received, cached ones included. */
  calls: number;
  /** Of `calls`, answered from the response cache. */
  cached: number;
  usage: TokenUsage;
  /** USD; absent when a judge call made now has no known price. */
  costUsd?: number;
  /** Wall time of the live judge calls, summed (batch and cached answers add nothing). */
  latencyMs: number;
}

export interface RunSummary {
  rows: number;
  errored: number;
  cached: number;
  pregenerated: number;
  evals: EvalSummary[];
  /** Live calls only: cached, pre-generated, errored and warm-up rows never skew these. */
  latencyMs: LatencySummary;
  /** Tokens of every call made now: the model calls and the LLM-judge calls (`judge` has that part). */
  usage: TokenUsage;
  /** USD of every call made now, model and judge; absent when a price is unknown or nothing was called. */
  costUsd?: number;
  /** The LLM-judge calls' part of `usage` and `costUsd`; absent when no judge was asked. */
  judge?: JudgeSpend;
  /** The simulated users' part of `usage` and `costUsd` (conversations); absent without a simulator. */
  simulator?: SimulatorSpend;
  /** Agent rows' peak heap growth (MB): max and p95; absent without agent rows. */
  agentMemoryMb?: AgentMemorySummary;
  /**
   * The provider's rate limit as this run met it: requests refused with 429 (each waited out and
   * sent again, none a row's error) and the wall time any request spent waiting for capacity.
   * Absent when no request waited.
   */
  rateLimit?: RateLimitSpend;
  /** Rows whose verdict differed between repeats (with --repeat). */
  flaky: Array<{ index: number; evals: string[] }>;
  /** Judge–human agreement, when dataset rows carry `labels` (a calibration set). */
  agreement?: RunAgreement;
  gates: GateResult[];
  passed: boolean;
  /**
   * Set when the run did not finish: `interrupted` (Ctrl-C, a closed stdout), `stopped` (the
   * circuit breaker: the model server became unreachable), `failed` (an error, e.g. a write
   * error). `passed` is then false whatever the rows said.
   */
  outcome?: RunOutcome;
}

export interface RateLimitSpend {
  /** Requests the provider refused with 429. */
  refused: number;
  /** Milliseconds during which at least one request waited for the rate limit. */
  waitedMs: number;
}

/** How an unfinished run ended; see `RunSummary.outcome`. */
export type RunOutcome = 'interrupted' | 'stopped' | 'failed';

export interface GateResult {
  name: string;
  passed: boolean;
  message: string;
}

/**
 * What answers a `--batch` row's judge calls that miss the cache. `owns(request)` says that a
 * cached answer came from this run's own judge job and is this row's to count as paid (an
 * earlier round of the run cached it while the row waited for another answer).
 */
export type JudgeTransport = ((request: ModelRequest) => Promise<ModelResponse>) & { owns?: (request: ModelRequest) => boolean };

/** The run's agent rows' peak heap growth (RunSummary.agentMemoryMb). */
export interface AgentMemorySummary {
  /** Agent rows that recorded a figure. */
  rows: number;
  max: number;
  /** Nearest-rank 95th percentile. */
  p95: number;
  /** Some rows ran alongside others, whose heap their figure counts too. */
  approximate: boolean;
}
