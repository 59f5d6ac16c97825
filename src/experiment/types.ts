import type { TokenUsage, ToolCallRecord } from '../model/types.js';
import type { RunAgreement } from '../scoring/agreement/run-agreement.js';
import type { ScoredEval } from '../scoring/types.js';
import type { LatencySummary } from './latency-stats.js';

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
  usage?: TokenUsage;
  costUsd?: number;
  finishReason?: string;
  cached: boolean;
  /** Scored a pre-generated output; no model was called. */
  pregenerated?: boolean;
  /** Answered by a Batch API job (`--batch`): no live latency. */
  batch?: boolean;
  /** Failures of this row's `teardown` / `onFail` hooks (a failed `setup` is the row's `error`). */
  hookErrors?: string[];
  /** A warm-up call (`--warmup`, `--warmup-repeats`): made, but left out of latency statistics. */
  warmup?: true;
  retries: number;
}

/** Statistics of one eval across the run's rows. */
export interface EvalSummary {
  name: string;
  /** Results counted (rows × repeats that ran this eval). */
  count: number;
  errored: number;
  /** Results a scorer declined to judge (e.g. latency of a cached row); left out of rates and means. */
  skipped?: number;
  /** Results that carried `passed`. */
  passCount: number;
  passed: number;
  passRate?: number;
  passRateCi95?: [number, number];
  meanScore?: number;
  meanScoreStdErr?: number;
  meanScoreCi95?: [number, number];
  min?: number;
  median?: number;
  max?: number;
  untyped?: boolean;
}

export interface RunSummary {
  rows: number;
  errored: number;
  cached: number;
  pregenerated: number;
  evals: EvalSummary[];
  /** Live calls only: cached, pre-generated, errored and warm-up rows never skew these. */
  latencyMs: LatencySummary;
  usage: TokenUsage;
  costUsd?: number;
  /** Rows whose verdict differed between repeats (with --repeat). */
  flaky: Array<{ index: number; evals: string[] }>;
  /** Judge–human agreement, when dataset rows carry `labels` (a calibration set). */
  agreement?: RunAgreement;
  gates: GateResult[];
  passed: boolean;
}

export interface GateResult {
  name: string;
  passed: boolean;
  message: string;
}
