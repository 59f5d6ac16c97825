import type { ScoredRow } from './types.js';
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
  /** Bits of the verdicts seen: pass, fail, error. */
  verdicts: number;
  scores: number[];
}

const VERDICT_BIT = { pass: 1, fail: 2, error: 4 } as const;

/** How many different verdicts a bit set holds. */
function verdictKinds(bits: number): number {
  return (bits & 1) + ((bits >> 1) & 1) + ((bits >> 2) & 1);
}

/**
 * Rows whose verdict (pass, fail or error) for an eval differs across repeats, gathered one
 * result at a time. Results with no verdict (a score only, or skipped) cannot flip and are
 * ignored. Keeps a few numbers per row × eval; a run without repeats need not use it at all.
 */
export class FlakyTracker {
  private readonly rows = new Map<number, Map<string, Track>>();

  add(row: ScoredRow): void {
    let evals = this.rows.get(row.index);
    if (!evals) {
      evals = new Map();
      this.rows.set(row.index, evals);
    }
    for (const [name, result] of Object.entries(row.evals)) {
      const verdict = result.error !== undefined ? 'error' : result.passed === undefined ? undefined : result.passed ? 'pass' : 'fail';
      if (verdict === undefined) continue;
      const track = evals.get(name) ?? { repeats: 0, passedCount: 0, verdicts: 0, scores: [] };
      track.repeats++;
      if (verdict === 'pass') track.passedCount++;
      track.verdicts |= VERDICT_BIT[verdict];
      if (result.error === undefined && result.score !== undefined) track.scores.push(result.score);
      evals.set(name, track);
    }
  }

  /** The flaky rows by index. */
  finish(): FlakyRow[] {
    const flaky: FlakyRow[] = [];
    for (const [index, evals] of [...this.rows].sort(([a], [b]) => a - b)) {
      const row: FlakyRow = { index, evals: [], details: {} };
      for (const [name, track] of evals) {
        if (verdictKinds(track.verdicts) < 2) continue;
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
}

/** `FlakyTracker` over results already at hand. */
export function findFlakyRows(results: Iterable<ScoredRow>): FlakyRow[] {
  const tracker = new FlakyTracker();
  for (const row of results) tracker.add(row);
  return tracker.finish();
}
