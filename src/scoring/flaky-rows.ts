import type { RowResult } from '../experiment/types.js';
import { mean, sampleStdDev } from './statistics.js';

/** How one eval behaved on one row across repeats. */
export interface FlakyEval {
  /** Repeats that ran this eval on the row. */
  repeats: number;
  /** Repeats that passed (errors count as not passed). */
  passedCount: number;
  passed: 'all' | 'some' | 'none';
  /** Mean and sample sd of the score across repeats, when scores exist (sd needs two). */
  mean?: number;
  sd?: number;
}

/** A row whose verdict for at least one eval differed between repeats. */
export interface FlakyRow {
  index: number;
  /** The evals whose verdict differed, in first-seen order. */
  evals: string[];
  details: Record<string, FlakyEval>;
}

interface Track {
  repeats: number;
  passedCount: number;
  verdicts: Set<'pass' | 'fail' | 'error'>;
  scores: number[];
}

/**
 * Rows whose verdict (pass, fail or error) for an eval differs across repeats. Results with no
 * verdict (a score only, or skipped) cannot flip and are ignored. Keeps a few numbers per row × eval.
 */
export function findFlakyRows(results: Iterable<RowResult>): FlakyRow[] {
  const rows = new Map<number, Map<string, Track>>();
  for (const row of results) {
    let evals = rows.get(row.index);
    if (!evals) {
      evals = new Map();
      rows.set(row.index, evals);
    }
    for (const [name, result] of Object.entries(row.evals)) {
      const verdict = result.error !== undefined ? 'error' : result.passed === undefined ? undefined : result.passed ? 'pass' : 'fail';
      if (verdict === undefined) continue;
      const track = evals.get(name) ?? { repeats: 0, passedCount: 0, verdicts: new Set(), scores: [] };
      track.repeats++;
      if (verdict === 'pass') track.passedCount++;
      track.verdicts.add(verdict);
      if (result.error === undefined && result.score !== undefined) track.scores.push(result.score);
      evals.set(name, track);
    }
  }
  const flaky: FlakyRow[] = [];
  for (const [index, evals] of [...rows].sort(([a], [b]) => a - b)) {
    const row: FlakyRow = { index, evals: [], details: {} };
    for (const [name, track] of evals) {
      if (track.verdicts.size < 2) continue;
      const detail: FlakyEval = {
        repeats: track.repeats,
        passedCount: track.passedCount,
        passed: track.passedCount === track.repeats ? 'all' : track.passedCount === 0 ? 'none' : 'some',
      };
      const m = mean(track.scores);
      if (m !== undefined) detail.mean = m;
      const sd = sampleStdDev(track.scores);
      if (sd !== undefined) detail.sd = sd;
      row.evals.push(name);
      row.details[name] = detail;
    }
    if (row.evals.length) flaky.push(row);
  }
  return flaky;
}
