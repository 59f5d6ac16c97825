import type { EvalSummary } from './eval-summary.js';
import type { ScoredEval, ScoredRow } from './types.js';
import { passRateStats, repeatRates } from './pass-rate.js';
import { FloatList } from './float-list.js';
import { clopperPearsonInterval } from './exact-interval.js';
import { meanStats, spread, type Numbers, type ScoreRange } from './statistics.js';

/** EvalSummary plus what only scoring knows; assignable to EvalSummary. */
export interface ScoredEvalSummary extends EvalSummary {
  /** Results with no verdict (e.g. latency on a cached row); left out of rates and means. */
  skipped: number;
  /** Mean of `normalized` over results that have it (what score_thresholds compare to). */
  meanNormalized?: number;
  /** Distinct rows with a score: the n behind meanScoreStdErr. */
  scoredRows: number;
}

interface Tally {
  count: number;
  errored: number;
  skipped: number;
  verdictCount: number;
  passedCount: number;
  untyped: boolean;
  /**
   * Each row is added once (no repeats): the per-row maps below stay empty, since a row's mean is
   * its score and its verdicts are one; a 1,000,000-row run then keeps only its scores (8 MB an
   * eval) instead of three map entries a row (~100 MB an eval, measured).
   */
  once: boolean;
  scores: FloatList;
  normalizedSum: number;
  normalizedCount: number;
  /**
   * Per dataset row: sum and count of scores over repeats. Two maps of plain numbers rather than
   * an object per row: a 100,000-row run keeps these for every row until the end.
   */
  rowSum: Map<number, number>;
  rowCount: Map<number, number>;
  /**
   * Per dataset row: verdicts, passed verdicts and errors over repeats (the pass rate's unit is
   * the row), packed into one number (see `pack`): one map entry per row, not three.
   */
  rowVerdicts: Map<number, number>;
}

/** Three counts below 2^17 each in one exact double: verdicts + passed·2^17 + errored·2^34. */
const FIELD = 2 ** 17;
const VERDICT = 1;
const PASSED = FIELD;
const ERRORED = FIELD * FIELD;
const unpack = (packed: number): { verdicts: number; passed: number; errored: number } => ({
  verdicts: packed % FIELD,
  passed: Math.floor(packed / PASSED) % FIELD,
  errored: Math.floor(packed / ERRORED),
});

function emptyTally(once = false): Tally {
  return {
    count: 0,
    errored: 0,
    skipped: 0,
    verdictCount: 0,
    passedCount: 0,
    untyped: false,
    once,
    scores: new FloatList(),
    normalizedSum: 0,
    normalizedCount: 0,
    rowSum: new Map(),
    rowCount: new Map(),
    rowVerdicts: new Map(),
  };
}

function add(tally: Tally, index: number, result: ScoredEval): void {
  tally.count++;
  if (result.untyped) tally.untyped = true;
  if (result.error !== undefined) {
    tally.errored++;
    if (!tally.once) tally.rowVerdicts.set(index, (tally.rowVerdicts.get(index) ?? 0) + ERRORED);
    return;
  }
  if (result.skipped) {
    tally.skipped++;
    return;
  }
  if (result.passed !== undefined) {
    tally.verdictCount++;
    if (!tally.once) tally.rowVerdicts.set(index, (tally.rowVerdicts.get(index) ?? 0) + VERDICT + (result.passed ? PASSED : 0));
    if (result.passed) tally.passedCount++;
  }
  if (result.normalized !== undefined) {
    tally.normalizedSum += result.normalized;
    tally.normalizedCount++;
  }
  if (result.score !== undefined) {
    tally.scores.push(result.score);
    if (tally.once) return;
    tally.rowSum.set(index, (tally.rowSum.get(index) ?? 0) + result.score);
    tally.rowCount.set(index, (tally.rowCount.get(index) ?? 0) + 1);
  }
}

function finish(name: string, tally: Tally, range: ScoreRange | undefined): ScoredEvalSummary {
  const summary: ScoredEvalSummary = {
    name,
    count: tally.count,
    errored: tally.errored,
    skipped: tally.skipped,
    verdictCount: tally.verdictCount,
    passedCount: tally.passedCount,
    scoredRows: tally.once ? tally.scores.length : tally.rowSum.size,
  };
  // An errored result of an eval that gives verdicts is a verdict that did not pass (the one
  // definition every surface and compare use); an eval without verdicts gets no pass rate.
  const verdictEval = tally.verdictCount > 0;
  if (verdictEval) summary.verdictCount += tally.errored;
  if (tally.once) return finishOnce(summary, tally, range);
  const rows = [...tally.rowVerdicts.values()].map(unpack);
  const counted = verdictEval ? rows.map((row) => ({ verdicts: row.verdicts + row.errored, passed: row.passed })).filter((row) => row.verdicts > 0) : [];
  const rate = passRateStats({ verdicts: counted.map((row) => row.verdicts), passed: counted.map((row) => row.passed) });
  if (rate) {
    summary.passRate = rate.passRate;
    summary.passRateCi95 = rate.ci95;
  }
  // pass^k and pass@k: an errored repeat is a repeat that did not pass.
  const repeats =
    verdictEval
      ? repeatRates(
          rows.map((row) => row.verdicts + row.errored),
          rows.map((row) => row.passed),
        )
      : undefined;
  if (repeats) {
    summary.repeats = repeats.k;
    summary.passHatK = repeats.passAll;
    summary.passHatKCi95 = repeats.passAllCi95;
    summary.passAtK = repeats.passAny;
    summary.passAtKCi95 = repeats.passAnyCi95;
  }
  // Repeats of one row are not independent samples: the spread that says how far the run's mean
  // could move is the spread between rows, so the mean and its SE are taken over per-row means.
  const rowMeans: number[] = [];
  for (const [index, sum] of tally.rowSum) rowMeans.push(sum / (tally.rowCount.get(index) ?? 1));
  return finishScores(summary, tally, rowMeans, range);
}

/**
 * `finish` for rows added once: the same figures the per-row maps would give (one verdict a row,
 * a row's mean its score, in the order the rows came), without them.
 */
function finishOnce(summary: ScoredEvalSummary, tally: Tally, range: ScoreRange | undefined): ScoredEvalSummary {
  // What passRateStats gives for one verdict a row: the exact interval over the verdicts.
  if (summary.verdictCount > 0) {
    summary.passRate = tally.passedCount / summary.verdictCount;
    summary.passRateCi95 = clopperPearsonInterval(tally.passedCount, summary.verdictCount) as [number, number];
  }
  return finishScores(summary, tally, tally.scores.values(), range);
}

function finishScores(summary: ScoredEvalSummary, tally: Tally, rowMeans: Numbers, range: ScoreRange | undefined): ScoredEvalSummary {
  const stats = meanStats(rowMeans, range);
  if (stats) {
    summary.meanScore = stats.mean;
    if (stats.stdErr !== undefined) summary.meanScoreStdErr = stats.stdErr;
    if (stats.ci95) summary.meanScoreCi95 = stats.ci95;
  }
  const observed = spread(tally.scores.values());
  if (observed) Object.assign(summary, observed);
  if (tally.normalizedCount > 0) summary.meanNormalized = tally.normalizedSum / tally.normalizedCount;
  if (tally.untyped) summary.untyped = true;
  return summary;
}

/**
 * Per-eval statistics gathered one result at a time, so a run never keeps its rows for them:
 * counts, pass rate with its 95% interval (over results that carry `passed`, errors and skips
 * counted apart; with repeats the row is the unit, see `passRateStats`), pass^k and pass@k with
 * repeats, mean score with SE and 95% interval (clipped to the eval's score
 * range when `ranges` has it), and min/median/max of the scores. Only numbers are kept: a few
 * per row and eval, or with `rowsOnce` only the scores.
 */
export class EvalTallies {
  private readonly tallies: Map<string, Tally>;

  constructor(
    private readonly evalNames: readonly string[],
    private readonly ranges: ReadonlyMap<string, ScoreRange> = new Map(),
    /**
     * Every row is added at most once (a run without repeats): nothing is kept per row but its
     * scores. Adding a row twice then counts its results as two rows'.
     * @default false
     */
    rowsOnce = false,
  ) {
    this.tallies = new Map(evalNames.map((name) => [name, emptyTally(rowsOnce)]));
  }

  add(row: ScoredRow): void {
    for (const name in row.evals) {
      const tally = this.tallies.get(name);
      const result = row.evals[name];
      if (tally && result && !result.absent) add(tally, row.index, result);
    }
    // A row that errored before its evals ran holds none of them: each is an errored result
    // there (as compare counts it), not a row left out of the rate.
    if (row.error === undefined) return;
    for (const [name, tally] of this.tallies) {
      if (row.evals[name] === undefined) add(tally, row.index, { error: row.error });
    }
  }

  /** The summaries in `evalNames` order. */
  finish(): ScoredEvalSummary[] {
    return this.evalNames.map((name) => finish(name, this.tallies.get(name) ?? emptyTally(), this.ranges.get(name)));
  }
}

/** `EvalTallies` over results already at hand. */
export function summarizeEvals(
  results: Iterable<ScoredRow>,
  evalNames: string[],
  ranges?: ReadonlyMap<string, ScoreRange>,
): ScoredEvalSummary[] {
  const tallies = new EvalTallies(evalNames, ranges);
  for (const row of results) tallies.add(row);
  return tallies.finish();
}
