import type { ConversationRecord } from '../conversation/types.js';
import type { PromptDiff } from './prompt-diff-types.js';
/**
 * The result of comparing two runs (`compareRuns`, `agentmark compare --format json`). Plain
 * JSON: numbers, strings, booleans, arrays and objects only; an optional field is left out
 * when it has no value (never NaN or Infinity). Rates, means and differences are fractions in
 * [0, 1] / [−1, 1]; the CLI shows them ×100 as points. Every difference is head − base.
 */
export interface CompareResult {
  /**
   * Shape version of this document; bumped when a field changes meaning. 2: the three-way
   * `gate.outcome`; `minDetectable` is the gate's one-sided test at α / evals (was two-sided 5%);
   * with repeats, pass rates are compared on rows' pass shares (was: passed in half the repeats).
   */
  version: 2;
  base: RunDescription;
  head: RunDescription;
  /** What differs between the two runs (prompt text, model, settings, dataset, commit). */
  differences: RunDifference[];
  pairing: Pairing;
  /** The settings the statistics were computed with. */
  settings: CompareSettings;
  /** One entry per eval present in either run, in base's order then head's new ones. */
  evals: EvalComparison[];
  /** Live calls only, as in each run's summary (cached rows never skew these). */
  performance: { base: RunPerformance; head: RunPerformance };
  changedRows: ChangedRows;
  gate: GateOutcome;
  /** AgentMark's per-row `regression_tolerance` check, when asked for (`--baseline-commit`). */
  tolerance?: ToleranceCheck;
  /** How the two prompts differ, from the texts each run stored (src/compare/prompt-diff.ts). */
  promptDiff?: PromptDiff;
}

export interface RunDescription {
  id: string;
  /** The run folder as given or found. */
  dir: string;
  prompt: { path: string; name: string; hash: string };
  model: string;
  dataset?: { path: string; hash: string };
  settings: Record<string, unknown>;
  /** The config agent that ran the rows (`options.agent` of the manifest); absent for a prompt-only run. */
  agent?: string;
  git?: { commit: string; dirty: boolean };
  startedAt: string;
  status: string;
  /** Dataset rows in the run (repeats of one row count once). */
  rows: number;
  /** Repeats per row (`--repeat`). */
  repeat: number;
  /** The row selection as given (`--rows`, `--sample`/`--seed`, `--split`), when there was one. */
  selection?: unknown;
}

export interface RunDifference {
  field: 'prompt' | 'model' | 'settings' | 'agent' | 'dataset' | 'commit';
  base: string;
  head: string;
}

export interface Pairing {
  /** Rows found in both runs, paired by a hash of input, expected output and metadata. */
  paired: number;
  onlyInBase: number;
  onlyInHead: number;
  /** The first few unpaired rows of each run (dataset index and input), to find them. */
  onlyInBaseRows: UnpairedRow[];
  onlyInHeadRows: UnpairedRow[];
  /** Set when fewer than half of either run's rows paired: the comparison speaks for a part of the runs only. */
  warning?: string;
}

export interface UnpairedRow {
  index: number;
  input: Record<string, unknown>;
}

export interface CompareSettings {
  /** Significance level of the gate (one-sided, after Holm). */
  alpha: number;
  /** Bootstrap resamples. */
  resamples: number;
  /** Bootstrap seed: the same runs and seed give the same intervals. */
  seed: number;
  /**
   * The drop, in points (0..100), the comparison must be able to detect for the gate to say
   * `no regression` (`--max-drop`, default 5). When given explicitly, a drop past it also fails.
   */
  maxDropPoints: number;
  /** Whether `--max-drop` was given (then a pass rate or mean falling by more than it is a regression too). */
  maxDropGiven: boolean;
}

/** An interval [low, high]. */
export type Interval = [number, number];

export interface SideStats {
  /**
   * Pass rate over the paired rows (errors count as not passed), with its 95% interval:
   * Wilson's, or with repeats row-clustered (the same computation as a run's summary).
   */
  passRate?: number;
  passRateCi95?: Interval;
  /** Mean normalised score over the paired rows (each row's mean over repeats), with its 95% interval. */
  meanScore?: number;
  meanScoreCi95?: Interval;
}

export interface PassRateDifference {
  /** head − base: difference of pass rates (with repeats, the mean of the rows' pass-share differences). */
  estimate: number;
  /**
   * `mcnemar`: one repeat on both sides, a verdict per row: Newcombe's interval and McNemar's
   * exact test. `wilcoxon`: repeats, a pass share per row: the paired t interval of the share
   * differences and Wilcoxon's signed-rank test on them.
   */
  test: 'mcnemar' | 'wilcoxon';
  /** Newcombe's method 10 interval (`mcnemar`), or the paired t interval (`wilcoxon`). */
  ci95: Interval;
  /** Seeded percentile bootstrap over paired rows. */
  bootstrapCi95?: Interval;
  /** Two-sided p of the test. */
  pValue: number;
  /** How the signed-rank p-value was computed (`wilcoxon` only). */
  method?: 'exact' | 'normal';
  /** One-sided "head is worse", unadjusted. */
  pWorse: number;
  /** The same two, Holm-adjusted across evals; only on an eval's primary test (verdicts for verdict evals). */
  pValueHolm?: number;
  /** What the gate reads. */
  pWorseHolm?: number;
}

export interface ScoreDifference {
  /** head − base, mean of per-row differences. */
  estimate: number;
  /** Paired t interval (needs two pairs). */
  ci95?: Interval;
  bootstrapCi95?: Interval;
  /** Wilcoxon signed-rank, two-sided. */
  pValue: number;
  /** One-sided "head is worse", unadjusted. */
  pWorse: number;
  /** Holm-adjusted across evals; only on a score eval's primary test. */
  pValueHolm?: number;
  pWorseHolm?: number;
  /** How the Wilcoxon p-value was computed. */
  method: 'exact' | 'normal';
}

export interface EvalComparison {
  name: string;
  /** `verdict`: the eval reports passed/failed (compared by McNemar); `score`: numbers only (Wilcoxon). */
  kind: 'verdict' | 'score';
  /** Paired rows where both runs have a result for this eval. */
  pairs: number;
  base: SideStats;
  head: SideStats;
  passRate?: PassRateDifference;
  score?: ScoreDifference;
  /** Rows whose verdict (with repeats, pass share; for score evals, score) went up / down / stayed. */
  improved: number;
  regressed: number;
  unchanged: number;
  /**
   * Smallest drop (a fraction; ×100 for points) the gate's test detects with 80% power: the
   * eval's own test, one-sided at α / (evals tested) (Holm's first step, the strictest), for
   * this number of pairs and the observed discordance (verdicts) or spread of differences.
   * Left out when it cannot be estimated or cannot be detected (`undetectable`).
   */
  minDetectable?: number;
  /** The test cannot reach its level with this many pairs, whatever the data. */
  undetectable?: true;
  /** The one-sided level `minDetectable` is computed at. */
  detectableAlpha?: number;
  /**
   * The drop (base − head, a fraction) the paired rows show with one-sided confidence
   * 1 − `detectableAlpha`: the lower end of the difference's interval at that level (Newcombe's
   * for verdicts, paired t for shares and scores). `--max-drop` fails the gate only when this is
   * past it, so noise alone fails it at most that often. Absent below two pairs.
   */
  dropLowerBound?: number;
  /** This eval's gate outcome. */
  gate?: EvalGate;
}

/** One eval's three-way gate: see `GateOutcome.outcome`. */
export interface EvalGate {
  outcome: GateVerdict;
  /** Why, in one line. */
  reason: string;
  /** `inconclusive` only: paired rows needed in all for the test to detect a drop of max-drop (when it can be estimated). */
  pairsNeeded?: number;
}

/**
 * `regressed`: a significant drop (one-sided, after Holm), or a drop past an explicit
 * `--max-drop`. `no regression`: not significant, and the test could detect a drop of max-drop
 * points with 80% power. `inconclusive`: not significant, and it could not.
 */
export type GateVerdict = 'regressed' | 'no regression' | 'inconclusive';

export interface RunPerformance {
  latencyP50Ms?: number;
  latencyP95Ms?: number;
  inputTokens: number;
  outputTokens: number;
  costUsd?: number;
}

export interface ChangedRows {
  /** Paired rows where some eval's verdict went from passed to not passed. */
  regressed: number;
  /** Paired rows where some verdict improved and none regressed. */
  improved: number;
  /** The first rows of each kind, regressions first, each in dataset order. */
  rows: ChangedRow[];
  /** Changed rows not listed. */
  omitted: number;
}

export interface ChangedRow {
  change: 'regressed' | 'improved';
  baseIndex: number;
  headIndex: number;
  input: Record<string, unknown>;
  expectedOutput?: unknown;
  /** The first repeat's output (or error) on each side. */
  baseOutput?: unknown;
  headOutput?: unknown;
  baseError?: string;
  headError?: string;
  /** A conversation row's transcript on each side (the first repeat's), to show side by side. */
  baseConversation?: ConversationRecord;
  headConversation?: ConversationRecord;
  evals: Record<string, { base?: EvalSide; head?: EvalSide; change: 'regressed' | 'improved' | 'same' }>;
}

/** One side of a changed row's eval: the first repeat's verdict, score, reason or error. */
export interface EvalSide {
  passed?: boolean;
  score?: number;
  reason?: string;
  error?: string;
  /**
   * With more than one repeat giving a verdict (or an error): how many passed, of how many. The
   * row changed by this share, which the first repeat alone may not show ("FAIL → FAIL").
   */
  repeats?: { passed: number; of: number };
}

export interface GateOutcome {
  /** Whether a gate was asked for (`--fail-on-regression`, `--fail-on-inconclusive` or `--max-drop`). */
  checked: boolean;
  /**
   * The worst outcome of the evals with paired results: regressed over inconclusive over no
   * regression. Inconclusive when no eval has paired results.
   */
  outcome: GateVerdict;
  /** Whether a regression was found (outcome `regressed`), asked for or not. */
  failed: boolean;
  /** One line per eval and reason that fired. */
  reasons: string[];
  /** One line per inconclusive eval. */
  inconclusive: string[];
  /** The line the report prints. */
  message: string;
}

/** AgentMark's check: a row × eval score below base × (1 − tolerance) is a regression. */
export interface ToleranceCheck {
  tolerance: number;
  /** Row × eval scores compared. */
  compared: number;
  failures: Array<{ baseIndex: number; headIndex: number; eval: string; base: number; head: number }>;
  /** Failures beyond the listed ones. */
  omitted: number;
  failed: boolean;
}
