import { truncate } from './truncate.js';

/** Narrowest a column is cut to when fitting a terminal: enough for `PASS (1.00…`. */
const MIN_COLUMN = 12;
/** Box drawing around n columns: `│ ` before each, ` │` after the last, ` │ ` between. */
const frame = (columns: number): number => 3 * columns + 1;
const length = (text: string): number => Array.from(text).length;

/**
 * Cuts the widest columns first until the table fits `width` terminal columns, so a wide
 * table (many evals, long inputs) stays readable instead of wrapping every line. No column is
 * cut below MIN_COLUMN (or its own width, if narrower): a table that does not fit even so is
 * not readable as a table, and the answer is undefined (the caller shows one block per row).
 */
export function fitColumns(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, width: number): string[][] | undefined {
  const widths = headers.map((header, column) => rows.reduce((max, row) => Math.max(max, length(row[column] ?? '')), length(header)));
  let total = widths.reduce((sum, w) => sum + w, 0) + frame(widths.length);
  while (total > width) {
    let widest = 0;
    for (let i = 1; i < widths.length; i++) if ((widths[i] ?? 0) > (widths[widest] ?? 0)) widest = i;
    const current = widths[widest] ?? 0;
    if (current <= MIN_COLUMN) return undefined;
    widths[widest] = current - 1;
    total -= 1;
  }
  return [headers, ...rows].map((cells) => cells.map((cell, column) => truncate(cell, widths[column] ?? 0)));
}
