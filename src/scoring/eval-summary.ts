/** Statistics of one eval across the run's rows. */
export interface EvalSummary {
  name: string;
  /** Results counted (rows × repeats that ran this eval). */
  count: number;
  errored: number;
  /** Results a scorer declined to judge (e.g. latency of a cached row); left out of rates and means. */
  skipped?: number;
  /** Results with a verdict (that carried `passed`), plus the errored ones of an eval that gives verdicts (an errored result did not pass): the pass rate's denominator. Older manifests name it `passCount`; the store reads them under this name. */
  verdictCount: number;
  /** Results that passed: the pass rate's numerator. Older manifests name it `passed` (next to the run's boolean `passed`); read under this name. */
  passedCount: number;
  /** Passed / verdicts. */
  passRate?: number;
  /** 95% interval of the pass rate: Wilson's, or with repeats row-clustered (docs/statistics.md). */
  passRateCi95?: [number, number];
  /** With repeats: the k of pass^k and pass@k, the repeats every row had (with unequal attempts, the fewest a row had; see docs/statistics.md). */
  repeats?: number;
  /** pass^k: share of rows that passed in every repeat (an errored repeat did not pass), with Wilson's interval over rows. */
  passHatK?: number;
  passHatKCi95?: [number, number];
  /** pass@k: share of rows that passed in at least one repeat, with Wilson's interval over rows. */
  passAtK?: number;
  passAtKCi95?: [number, number];
  meanScore?: number;
  meanScoreStdErr?: number;
  meanScoreCi95?: [number, number];
  min?: number;
  median?: number;
  max?: number;
  untyped?: boolean;
}
