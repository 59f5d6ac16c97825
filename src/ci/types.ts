import type { CompareResult, Interval } from '../compare/types.js';

/**
 * What `ci` says of one prompt:
 * - `regressed`, `no regression`, `inconclusive`: the paired comparison's gate (src/compare/);
 * - `unchanged`: every file the prompt's run read is the same at base and head;
 * - `new`: no such prompt (with test_settings) at base; `removed`: none at head;
 * - `no base`: no base results could be had (only with --allow-missing-base);
 * - `unfinished`: not run to the end (--max-cost was reached, or Ctrl-C);
 * - `error`: the head run could not start (a broken prompt, dataset or config at head).
 */
export type CiVerdict = 'regressed' | 'no regression' | 'inconclusive' | 'unchanged' | 'new' | 'removed' | 'no base' | 'unfinished' | 'error';

/** One eval of one side, from that run's own summary (the comparison's paired figures are in `comparison`). */
export interface CiEvalSide {
  name: string;
  passRate?: number;
  passRateCi95?: Interval;
  meanScore?: number;
  meanScoreCi95?: Interval;
}

/** One side's run, as the report shows it. */
export interface CiRunSide {
  runId: string;
  rows: number;
  errored: number;
  /** Rows answered from the response cache. */
  cached: number;
  /** USD of the live calls; absent when none were made or a price is unknown. */
  costUsd?: number;
  /** The run's own gates passed (evals, errored rows, thresholds). */
  passed: boolean;
  evals: CiEvalSide[];
  /** Where the base came from: an earlier run in the store, a run in the base worktree, or (unchanged) the head's run. */
  source?: 'store' | 'worktree' | 'head';
}

export interface CiPromptResult {
  /** Relative to the project root, with `/`. */
  path: string;
  verdict: CiVerdict;
  head?: CiRunSide;
  base?: CiRunSide;
  /** Present for the three gate verdicts. */
  comparison?: CompareResult;
  /** Why: the missing base, the error, what was left unfinished. */
  note?: string;
}

export interface CiReport {
  /** Shape version of this document. */
  version: 1;
  base: { ref?: string; commit?: string; tried: string[] };
  /** Set on one part of a sharded check (`--shard i/n`); `ci merge` joins the parts. */
  shard?: { index: number; count: number };
  /** Set on a report `ci merge` made: how many parts it joined. */
  merged?: { count: number };
  prompts: CiPromptResult[];
  /** Set when --max-cost stopped the live calls: the limit and what had been spent. */
  costLimit?: { maxUsd: number; spentUsd: number };
  /** Estimated live model calls before the run (rows the cache could not answer), when estimated. */
  estimatedLiveCalls?: number;
  exitCode: number;
}
