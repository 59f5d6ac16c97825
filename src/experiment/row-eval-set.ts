import { rowEvals, type DatasetRow } from '../dataset/index.js';
import { ROW_SCORE, weightedRowScore, type BoundEval } from '../scoring/index.js';
import type { RowResult } from './types.js';

/** One eval bound for one row, with its share of the row's weighted score. */
export interface WeightedEval {
  bound: BoundEval;
  weight: number;
}

/** The evals of each row: the prompt's, and those a row adds (see dataset/row-evals.ts). */
export interface RowEvalSet {
  /** Eval names only rows carry (in the order first seen), `row_score` last when any row is weighted. */
  rowOnly: string[];
  /** Every distinct bound eval of the rows (their schemas and ranges feed the summary). */
  bound: BoundEval[];
  evalsFor(row: DatasetRow): WeightedEval[];
  close(): Promise<void>;
}

/**
 * A scored (or errored) row's evals made whole: its weighted `row_score` when the row is
 * weighted, and each eval only other rows carry marked absent, so that no surface counts it
 * on this row (an errored row's missing evals otherwise count as errored).
 */
export function completeRowEvals(set: RowEvalSet | undefined, row: DatasetRow, result: RowResult, scored: readonly WeightedEval[]): RowResult {
  if (set === undefined || set.rowOnly.length === 0) return result;
  const read = rowEvals(row.metadata);
  const weighted = read !== undefined && (read.threshold !== undefined || read.specs.some((spec) => spec.weight !== undefined));
  if (weighted && result.error === undefined && !(ROW_SCORE in result.evals)) {
    const parts = scored.flatMap((e) => {
      const one = result.evals[e.bound.name];
      return one === undefined ? [] : [{ name: e.bound.name, result: one, weight: e.weight }];
    });
    result.evals[ROW_SCORE] = weightedRowScore(parts, read.threshold);
  }
  const carried = new Set((read?.specs ?? []).map((spec) => spec.name));
  if (weighted) carried.add(ROW_SCORE);
  for (const name of set.rowOnly) {
    if (!carried.has(name) && result.evals[name] === undefined) result.evals[name] = { skipped: true, absent: true, reason: 'not an eval of this row' };
  }
  return result;
}
