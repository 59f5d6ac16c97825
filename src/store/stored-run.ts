import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RowResult } from '../experiment/types.js';
import { UsageError } from '../errors/index.js';
import { MANIFEST_FILE, RESULTS_FILE } from './run-handle.js';
import type { RowOffsets } from './row-offsets.js';
import { checkResults, duplicateRowError } from './results-integrity.js';
import { scanResults } from './scan-results.js';
import { RunStoreError } from './store-error.js';
import type { RunManifest } from './types.js';
import { parseManifest } from './parse-manifest.js';

/** A finished (or stopped) run read back from its folder: what `runs show` and `compare` work on. */
export interface StoredRun {
  /** Absolute path of the run folder. */
  dir: string;
  manifest: RunManifest;
  /**
   * Every row in dataset order (index, then repeat), read one at a time: a fresh pass per call.
   * The results file is in finish order; a scan keeps 32 bytes a row to read it back in order.
   */
  rowsInOrder(): AsyncGenerator<RowResult>;
  /** As rowsInOrder, with each row's line as stored (its text, with the newline): what `merge` copies. */
  linesInOrder?(): AsyncGenerator<StoredLine>;
  /**
   * A run folder's results file and where each of its rows is, once checked (checkStoredResults):
   * for a reader that copies the lines as bytes (`merge`) and parses each once.
   */
  checkedResults?(): Promise<{ path: string; offsets: RowOffsets }>;
}

/** A row read back with the line it was read from. */
export interface StoredLine {
  row: RowResult;
  /** The line as stored, with its `\n`. */
  text: string;
}

/**
 * Where every complete row of a results file is (a torn last line is left out), checked against
 * what the manifest records (see checkResults) and for a row stored twice, before any row is read.
 * The one check of a run's results: every command reading a run, and the viewer, go through it.
 */
export async function checkStoredResults(dir: string, manifest: RunManifest): Promise<RowOffsets> {
  const path = join(dir, RESULTS_FILE);
  const { offsets, ...found } = await scanResults(path);
  checkResults(dir, path, manifest, found);
  const twice = offsets.duplicate();
  if (twice) throw duplicateRowError(path, manifest, twice[0], twice[1]);
  return offsets;
}

/** Bytes read at a time: rows near each other in the file are served from one read. */
const WINDOW = 1 << 20;

/**
 * Reads rows at the given offsets in order through a 1 MB window: rows finish roughly in
 * dataset order, so the next row is almost always inside the window already read, and a
 * 100,000-row file takes ~50 reads instead of one per row. The rows are checked (`checked`)
 * at the first row asked for; one generator, not one delegating to another: a million rows
 * pass each layer one await at a time.
 */
async function* readInOrder<T>(path: string, checked: () => Promise<RowOffsets>, make: (text: string, start: number) => T): AsyncGenerator<T> {
  const offsets = await checked();
  if (offsets.size === 0) return;
  const file = await open(path, 'r');
  try {
    // One buffer for every read (each row is decoded to its own string before the next read):
    // a fresh 1 MB per read was ~1,000 buffers for two 1M-row runs, freed only as the GC found them.
    let buffer = Buffer.alloc(0);
    let window = buffer;
    let windowStart = 0;
    for (const [start, length] of offsets.inOrder()) {
      if (start < windowStart || start + length > windowStart + window.length) {
        if (buffer.length < Math.max(WINDOW, length)) buffer = Buffer.alloc(Math.max(WINDOW, length));
        const { bytesRead } = await file.read(buffer, 0, buffer.length, start);
        window = buffer.subarray(0, bytesRead);
        windowStart = start;
      }
      const from = start - windowStart;
      yield make(window.toString('utf8', from, from + length), start);
    }
  } finally {
    await file.close();
  }
}

/** The row of a line read back at byte `start`; a line that is not JSON is STORE_CORRUPT_RESULTS. */
export function parseRow(text: string, path: string, start: number): RowResult {
  try {
    return JSON.parse(text) as RowResult;
  } catch (error) {
    throw new RunStoreError('STORE_CORRUPT_RESULTS', `no result row at byte ${start}: the results file changed while it was read`, {
      location: { file: path },
      cause: error,
    });
  }
}

/** Opens a run folder by path (any folder holding a manifest.json, e.g. a CI artifact). */
export async function openRunFolder(dir: string): Promise<StoredRun> {
  const manifestPath = join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(manifestPath, 'utf8');
  } catch (error) {
    throw new UsageError('USAGE_UNKNOWN_RUN', `${dir} is not a run folder (no readable ${MANIFEST_FILE})`, {
      hint: 'give a run id, `latest`, `latest~N`, `@<git-ref>`, `branch:<name>` or `commit:<sha>` (with a team store), or a folder under .agentmark/runs/',
      cause: error,
    });
  }
  let manifest: RunManifest;
  try {
    manifest = parseManifest(text);
  } catch (error) {
    throw new RunStoreError('STORE_BAD_MANIFEST', 'manifest is not valid JSON', { location: { file: manifestPath }, cause: error });
  }
  const resultsPath = join(dir, RESULTS_FILE);
  let offsets: RowOffsets | undefined;
  const checked = async (): Promise<RowOffsets> => (offsets ??= await checkStoredResults(dir, manifest));
  return {
    dir,
    manifest,
    rowsInOrder() {
      return readInOrder(resultsPath, checked, (text, start) => parseRow(text, resultsPath, start));
    },
    linesInOrder() {
      return readInOrder(resultsPath, checked, (text, start) => ({ row: parseRow(text, resultsPath, start), text }));
    },
    async checkedResults() {
      offsets ??= await checkStoredResults(dir, manifest);
      return { path: resultsPath, offsets };
    },
  };
}
