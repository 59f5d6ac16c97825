import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ResultsHash } from '../results-integrity.js';
import { RESULTS_FILE } from '../run-handle.js';
import { RunStoreError } from '../store-error.js';
import type { ResultsIntegrity } from '../types.js';
import { storeWriteError } from '../write-error.js';

/** Bytes gathered before one write to the new results file. */
const WRITE_BYTES = 1 << 20;

/**
 * Replaces a completed run folder's results.jsonl by `lines` (a source run's, without their
 * `\n`): written beside it, synced, and renamed over it only when they match `integrity`, so the
 * folder holds the old file or the whole new one, never part of it. Lines that do not match are
 * STORE_RESULTS_MISMATCH and the folder is left as it was. Its manifest, labels and view index stay:
 * the index describes the recorded bytes (view-index-reader.ts trusts it by the manifest's record),
 * which the file holds again.
 */
export async function replaceResults(dir: string, runId: string, lines: AsyncIterable<string>, integrity: ResultsIntegrity): Promise<void> {
  const path = join(dir, RESULTS_FILE);
  const temp = `${path}.replacing`;
  const hash = new ResultsHash();
  try {
    const file = await open(temp, 'w');
    try {
      let text = '';
      for await (const line of lines) {
        const bare = line.endsWith('\n') ? line.slice(0, -1) : line;
        hash.line(bare);
        text += `${bare}\n`;
        if (text.length < WRITE_BYTES) continue;
        await file.write(text);
        text = '';
      }
      if (text !== '') await file.write(text);
      await file.sync();
    } finally {
      await file.close();
    }
  } catch (error) {
    await rm(temp, { force: true });
    throw storeWriteError(error, path);
  }
  const record = hash.value();
  if (record.rows !== integrity.rows || record.sha256 !== integrity.sha256) {
    await rm(temp, { force: true });
    throw new RunStoreError('STORE_RESULTS_MISMATCH', `run ${runId}: the lines sent to replace its copy do not match its integrity record (${integrity.rows} rows); the copy is left as it was`, {
      location: { file: path },
    });
  }
  await rename(temp, path);
}
