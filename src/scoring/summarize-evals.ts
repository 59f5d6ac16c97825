import type { EvalSummary, RowResult } from '../experiment/types.js';
import { meanStats, spread, wilsonInterval } from './statistics.js';

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
  passCount: number;
  passed: number;
  untyped: boolean;
  scores: number[];
  normalizedSum: number;
  normalizedCount: number;
  /** Per dataset row: sum and count of scores over repeats. */
  perRow: Map<number, { sum: number; n: number }>;
}

function emptyTally(): Tally {
  return { count: 0, errored: 0, skipped: 0, passCount: 0, passed: 0, untyped: false, scores: [], normalizedSum: 0, normalizedCount: 0, perRow: new Map() };
}

function add(tally: Tally, index: number, result: RowResult['evals'][string]): void {
  tally.count++;
  if (result.untyped) tally.untyped = true;
  if (result.error !== undefined) {
    tally.errored++;
    return;
  }
  if (result.skipped) {
    tally.skipped++;
    return;
  }
  if (result.passed !== undefined) {
    tally.passCount++;
    if (result.passed) tally.passed++;
  }
  if (result.normalized !== undefined) {
    tally.normalizedSum += result.normalized;
    tally.normalizedCount++;
  }
  if (result.score !== undefined) {
    tally.scores.push(result.score);
    const row = tally.perRow.get(index) ?? { sum: 0, n: 0 };
    row.sum += result.score;
    row.n++;
    tally.perRow.set(index, row);
  }
}

function finish(name: string, tally: Tally): ScoredEvalSummary {
  const summary: ScoredEvalSummary = {
    name,
    count: tally.count,
    errored: tally.errored,
    skipped: tally.skipped,
    passCount: tally.passCount,
    passed: tally.passed,
    scoredRows: tally.perRow.size,
  };
  if (tally.passCount > 0) {
    summary.passRate = tally.passed / tally.passCount;
    const interval = wilsonInterval(tally.passed, tally.passCount);
    if (interval) summary.passRateCi95 = interval;
  }
  // Repeats of one row are not independent samples: the spread that says how far the run's mean
  // could move is the spread between rows, so the mean and its SE are taken over per-row means.
  const rowMeans = [...tally.perRow.values()].map((row) => row.sum / row.n);
  const stats = meanStats(rowMeans);
  if (stats) {
    summary.meanScore = stats.mean;
    if (stats.stdErr !== undefined) summary.meanScoreStdErr = stats.stdErr;
    if (stats.ci95) summary.meanScoreCi95 = stats.ci95;
  }
  const range = spread(tally.scores);
  if (range) Object.assign(summary, range);
  if (tally.normalizedCount > 0) summary.meanNormalized = tally.normalizedSum / tally.normalizedCount;
  if (tally.untyped) summary.untyped = true;
  return summary;
}

/**
 * Per-eval statistics over a run's results, in `evalNames` order: counts, pass rate with a
 * Wilson 95% interval (over results that carry `passed`; errors and skips are counted apart),
 * mean score with SE and 95% interval, and min/median/max of the scores. One pass over the
 * results; only numbers are kept, never rows.
 */
export function summarizeEvals(results: Iterable<RowResult>, evalNames: string[]): ScoredEvalSummary[] {
  const tallies = new Map<string, Tally>(evalNames.map((name) => [name, emptyTally()]));
  for (const row of results) {
    for (const [name, result] of Object.entries(row.evals)) {
      const tally = tallies.get(name);
      if (tally) add(tally, row.index, result);
    }
  }
  return evalNames.map((name) => finish(name, tallies.get(name) ?? emptyTally()));
}
