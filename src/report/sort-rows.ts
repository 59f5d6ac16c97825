import type { RowResult } from '../experiment/types.js';

/** Dataset order, then repeat: rows finish in any order under concurrency, reports do not. */
export function compareRows(a: RowResult, b: RowResult): number {
  return a.index - b.index || a.repeat - b.repeat;
}

export function sortRows(rows: RowResult[]): RowResult[] {
  return rows.sort(compareRows);
}

/** `3`, or `3.1` (index.repeat) when the run has repeats. */
export function rowLabel(row: RowResult, withRepeat: boolean): string {
  return withRepeat ? `${row.index}.${row.repeat}` : String(row.index);
}
