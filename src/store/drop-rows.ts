import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { RowResult } from '../experiment/types.js';
import { readRawLines } from './results-file.js';
import { rowKey } from './row-key.js';

/**
 * Takes the rows `drop` picks out of a results file (rewritten through a temporary file and a
 * rename, so a kill leaves the old file or the new one), for a resume that runs them again: the
 * file then never holds two results for one row. Returns their `rowKey`s; the file is left alone
 * when none match. A torn last line is not copied (it would be cut off anyway).
 */
export async function dropRows(path: string, drop: (row: RowResult) => boolean): Promise<Set<string>> {
  const dropped = new Set<string>();
  const picked = (text: string): RowResult | undefined => {
    try {
      const row = JSON.parse(text) as RowResult;
      return drop(row) ? row : undefined;
    } catch {
      return undefined;
    }
  };
  let any = false;
  for await (const line of readRawLines(path)) {
    if (line.terminated && picked(line.text) !== undefined) {
      any = true;
      break;
    }
  }
  if (!any) return dropped;
  const tmp = `${path}.${process.pid}.drop.tmp`;
  const out = createWriteStream(tmp);
  try {
    for await (const line of readRawLines(path)) {
      if (!line.terminated) continue;
      const row = picked(line.text);
      if (row !== undefined) {
        dropped.add(rowKey(row.index, row.repeat));
        continue;
      }
      if (!out.write(`${line.text}\n`)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    await rename(tmp, path);
  } catch (error) {
    out.destroy();
    await rm(tmp, { force: true });
    throw error;
  }
  return dropped;
}
