import { open } from 'node:fs/promises';
import type { RowResult } from '../experiment/types.js';
import { RunStoreError } from '../store/index.js';

/**
 * Rows read back from a results file by the byte ranges an index (run-index.ts) holds: `starts`
 * and `lengths` of each row's line, by its place in the file.
 */

/** The rows at places [from, to), read with one read: their lines are contiguous. */
export async function readRowsInRange(path: string, starts: readonly number[], lengths: readonly number[], from: number, to: number): Promise<RowResult[]> {
  const first = starts[from];
  const lastStart = starts[to - 1];
  const lastLength = lengths[to - 1];
  if (first === undefined || lastStart === undefined || lastLength === undefined) return [];
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(lastStart + lastLength - first);
    await file.read(buffer, 0, buffer.length, first);
    const rows: RowResult[] = [];
    for (let p = from; p < to; p++) {
      const start = (starts[p] as number) - first;
      rows.push(parseStored(buffer.toString('utf8', start, start + (lengths[p] as number)), path, starts[p] as number));
    }
    return rows;
  } finally {
    await file.close();
  }
}

/** The full rows at these places, each read by its byte range (a place with none is skipped). */
export async function readRowsAt(path: string, starts: readonly number[], lengths: readonly number[], positions: readonly number[]): Promise<RowResult[]> {
  const file = await open(path, 'r');
  try {
    const rows: RowResult[] = [];
    for (const position of positions) {
      const start = starts[position];
      const length = lengths[position];
      if (start === undefined || length === undefined) continue;
      const buffer = Buffer.alloc(length);
      await file.read(buffer, 0, length, start);
      rows.push(parseStored(buffer.toString('utf8'), path, start));
    }
    return rows;
  } finally {
    await file.close();
  }
}

/** A row read back by its byte range; anything else means the file changed under the index (409, not a 500). */
function parseStored(text: string, path: string, start: number): RowResult {
  try {
    const row = JSON.parse(text) as RowResult;
    if (typeof row === 'object' && row !== null && typeof row.index === 'number') return row;
  } catch {
    // reported below
  }
  throw new RunStoreError('STORE_CORRUPT_RESULTS', `no result row at byte ${start}: the results file changed after it was read`, { location: { file: path } });
}
