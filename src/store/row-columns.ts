import type { RowResult } from '../experiment/types.js';
import type { ScoredEval } from '../scoring/types.js';
import { ROW_CACHED, ROW_ERRORED, ROW_FAILED, type IndexEntry, type RowIndex, type VerdictChar } from './row-index-types.js';

export function verdictOf(result: ScoredEval | undefined): VerdictChar {
  // An eval only other rows carry (their `evals`) is none of this row's: no verdict, not a skip.
  if (result === undefined || result.absent) return '-';
  if (result.error !== undefined) return 'E';
  if (result.skipped) return 'S';
  if (result.passed === true) return 'P';
  if (result.passed === false) return 'F';
  return '-';
}

/**
 * Appends a row to an index as the numbers the rows table filters and sorts on, straight into
 * the columns: no array per row is made, which on 100,000 rows is most of the garbage an index
 * build leaves. "Failed" means what the runner's gate means by it: the row errored, or an eval
 * errored or did not pass.
 */
export function appendRow(columns: RowIndex, row: RowResult): void {
  const position = columns.index.length;
  let verdicts = '';
  columns.evalNames.forEach((name, k) => {
    const result = row.evals[name];
    verdicts += verdictOf(result);
    (columns.scores[k] as Array<number | null>).push(result?.score ?? null);
    const label = result?.label ?? null;
    const labels = columns.labels[k] as Array<string | null>;
    // Most evals never label: their column stays empty until a row has a label.
    if (label !== null) while (labels.length < position) labels.push(null);
    if (label !== null || labels.length > 0) labels.push(label);
  });
  let flags = 0;
  if (row.error !== undefined) flags |= ROW_ERRORED | ROW_FAILED;
  if (verdicts.includes('F') || verdicts.includes('E')) flags |= ROW_FAILED;
  if (row.cached) flags |= ROW_CACHED;
  columns.index.push(row.index);
  columns.repeat.push(row.repeat);
  columns.flags.push(flags);
  columns.latencyMs.push(row.latencyMs ?? null);
  columns.costUsd.push(row.costUsd ?? null);
  columns.verdicts += verdicts;
}

/** Row p of the columns as one entry (what a live event sends for a new row). */
export function entryAt(columns: RowIndex, p: number): IndexEntry {
  const n = columns.evalNames.length;
  const labels = columns.labels.map((column) => column[p] ?? null);
  return [
    columns.index[p] as number,
    columns.repeat[p] as number,
    columns.flags[p] as number,
    columns.latencyMs[p] ?? null,
    columns.costUsd[p] ?? null,
    columns.verdicts.slice(p * n, p * n + n),
    columns.scores.map((column) => column[p] ?? null),
    labels.some((l) => l !== null) ? labels : [],
  ];
}

/** An index with no rows yet. */
export function emptyColumns(evalNames: readonly string[]): RowIndex {
  return { evalNames: [...evalNames], index: [], repeat: [], flags: [], latencyMs: [], costUsd: [], verdicts: '', scores: evalNames.map(() => []), labels: evalNames.map(() => []) };
}
