import { rowContentText } from '../dataset/row-identity.js';
import type { RowResult } from '../experiment/types.js';

/** One eval on one dataset row, its repeats reduced to means. */
export interface ReducedEval {
  /** Share of repeats that passed, errors counting as not passed; undefined when no repeat gave a verdict or an error. */
  verdict?: number;
  /** Repeats with a verdict or an error (the share's denominator), and how many of them passed. */
  verdicts: number;
  passed: number;
  /** Whether any repeat gave a real `passed` (so the eval is a verdict eval). */
  hasVerdict: boolean;
  /** Mean normalised score over repeats that have one. */
  score?: number;
}

/** A dataset row of one run with its repeats reduced: what pairing and statistics work on. */
export interface ReducedRow {
  /**
   * The row's content (input, expected output, metadata) as canonical JSON: its identity across
   * runs (the text rowIdentity hashes; unhashed, as rows are only matched within this process).
   */
  readonly key: string;
  index: number;
  evals: Map<string, ReducedEval>;
  /** The first repeat, for showing the row when its verdict changed. */
  first: RowResult;
}

interface Tally {
  verdicts: number;
  passed: number;
  hasVerdict: boolean;
  scoreSum: number;
  scores: number;
}

/**
 * One eval of a row with one repeat, as reduce's tally would give it without the tally: an
 * error is one verdict not passed, a skipped or absent eval nothing, else its verdict and score.
 */
function single(row: RowResult, name: string): ReducedEval {
  const result = row.evals[name];
  if (result === undefined ? row.error !== undefined : result.error !== undefined) return { hasVerdict: false, verdicts: 1, passed: 0, verdict: 0 };
  if (!result || result.skipped) return { hasVerdict: false, verdicts: 0, passed: 0 };
  // As the tally sums it: 0 + the score, over one.
  const normalized = result.normalized;
  if (result.passed === undefined) return normalized === undefined ? { hasVerdict: false, verdicts: 0, passed: 0 } : { hasVerdict: false, verdicts: 0, passed: 0, score: (0 + normalized) / 1 };
  const passed = result.passed ? 1 : 0;
  return normalized === undefined ? { hasVerdict: true, verdicts: 1, passed, verdict: passed } : { hasVerdict: true, verdicts: 1, passed, verdict: passed, score: (0 + normalized) / 1 };
}

function reduce(group: RowResult[], evalNames: readonly string[], distinct: boolean): ReducedRow {
  const first = group[0] as RowResult;
  if (group.length === 1 && distinct) {
    const evals = new Map<string, ReducedEval>();
    for (const name of evalNames) evals.set(name, single(first, name));
    return new Reduced(first.index, evals, first);
  }
  const tallies = new Map<string, Tally>();
  for (const row of group) {
    for (const name of evalNames) {
      const result = row.evals[name];
      let tally = tallies.get(name);
      if (!tally) tallies.set(name, (tally = { verdicts: 0, passed: 0, hasVerdict: false, scoreSum: 0, scores: 0 }));
      // A row that errored before its evals ran, or an eval that errored, has not passed.
      if (result === undefined ? row.error !== undefined : result.error !== undefined) {
        tally.verdicts += 1;
        continue;
      }
      if (!result || result.skipped) continue;
      if (result.passed !== undefined) {
        tally.verdicts += 1;
        tally.hasVerdict = true;
        if (result.passed) tally.passed += 1;
      }
      if (result.normalized !== undefined) {
        tally.scoreSum += result.normalized;
        tally.scores += 1;
      }
    }
  }
  const evals = new Map<string, ReducedEval>();
  for (const [name, tally] of tallies) {
    evals.set(name, {
      hasVerdict: tally.hasVerdict,
      verdicts: tally.verdicts,
      passed: tally.passed,
      ...(tally.verdicts > 0 ? { verdict: tally.passed / tally.verdicts } : {}),
      ...(tally.scores > 0 ? { score: tally.scoreSum / tally.scores } : {}),
    });
  }
  return new Reduced(first.index, evals, first);
}

/** A reduced row whose identity text is written the first time it is asked for (pairing in step compares rows without it). */
class Reduced implements ReducedRow {
  #key: string | undefined;

  constructor(readonly index: number, readonly evals: Map<string, ReducedEval>, readonly first: RowResult) {}

  get key(): string {
    this.#key ??= rowContentText(this.first);
    return this.#key;
  }
}

/**
 * Groups a run's rows (in dataset order, so a row's repeats are adjacent) into one reduced row
 * per dataset row, as a stream.
 */
export async function* reduceRows(rows: AsyncIterable<RowResult>, evalNames: readonly string[]): AsyncGenerator<ReducedRow> {
  // A name listed twice is tallied twice (as reduce always did): only the general path does that.
  const distinct = new Set(evalNames).size === evalNames.length;
  let group: RowResult[] = [];
  for await (const row of rows) {
    if (group.length > 0 && (group[0] as RowResult).index !== row.index) {
      yield reduce(group, evalNames, distinct);
      group = [];
    }
    group.push(row);
  }
  if (group.length > 0) yield reduce(group, evalNames, distinct);
}
