import { rowLabels } from '../dataset/index.js';
import type { RowResult } from '../experiment/types.js';
import type { StoredRun } from '../store/index.js';

/** How a row is named on the command line: its dataset index, or its `name`. */
export type RowRef = { index: number } | { name: string };

export function parseRowRef(text: string): RowRef {
  return /^\d+$/.test(text) ? { index: Number(text) } : { name: text };
}

/**
 * Finds the rows named by `refs` (at `repeat` each) in one pass over the run, keyed by the
 * reference as written. A reference that matches nothing is simply absent from the result.
 */
export async function findRows(run: StoredRun, refs: ReadonlyArray<{ ref: RowRef; repeat: number }>): Promise<Map<string, RowResult>> {
  const wanted = new Set(refs.map((entry) => rowRefKey(entry.ref, entry.repeat)));
  const found = new Map<string, RowResult>();
  for await (const row of run.rowsInOrder()) {
    const byIndex = `#${row.index}:${row.repeat}`;
    if (wanted.has(byIndex)) found.set(byIndex, row);
    const name = rowLabels(row.metadata).name;
    if (name !== undefined && wanted.has(`@${name}:${row.repeat}`)) found.set(`@${name}:${row.repeat}`, row);
  }
  return found;
}

export function rowRefKey(ref: RowRef, repeat: number): string {
  return 'index' in ref ? `#${ref.index}:${repeat}` : `@${ref.name}:${repeat}`;
}
