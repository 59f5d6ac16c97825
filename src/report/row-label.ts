import type { RowResult } from '../experiment/types.js';

/** `3`, or `3.1` (index.repeat) when the run has repeats. */
export function rowLabel(row: RowResult, withRepeat: boolean): string {
  return withRepeat ? `${row.index}.${row.repeat}` : String(row.index);
}
