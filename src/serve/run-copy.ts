import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RowResult } from '../experiment/types.js';
import { MANIFEST_FILE, RESULTS_FILE, RunLock, ViewIndexWriter, type RunStorage } from '../store/index.js';
import { ResultsHash } from '../store/results-integrity.js';
import type { RunManifest } from '../store/types.js';
import { writeStoreLabels } from './copy-labels.js';

/** Lines appended to a copy in one write (~3 MB of 300-byte rows). */
const WRITE_EVERY = 10_000;
/** The store's marker of what a copy was made from: the store's manifest, as text. */
const COPIED_FILE = '.store-manifest.json';
/** The store's change number of the run when its rows were copied (one snapshot: pg-snapshot-read.ts). */
const CHANGE_FILE = '.store-change';

/**
 * A run folder being written from the store's lines by `serve` (store-mirror.ts): how far it got,
 * and what it holds (its integrity hash and view index made as the lines arrive).
 */
export interface RunCopy {
  /** The store's manifest of the run when last seen (a running run's is seen again only when it changes). */
  manifest: RunManifest;
  lines: number;
  bytes: number;
  hash: ResultsHash;
  index: ViewIndexWriter;
  /** Held while the run is `running` in the store, so the viewer shows it running (not interrupted). */
  lock: RunLock | undefined;
}

/** A new, empty copy of the run in `dir` (what was there goes), its labels the store's. */
export async function startCopy(storage: RunStorage, manifest: RunManifest, dir: string, running: boolean): Promise<RunCopy> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, RESULTS_FILE), '');
  await writeStoreLabels(storage, manifest.id, dir);
  return { manifest, lines: 0, bytes: 0, hash: new ResultsHash(), index: new ViewIndexWriter(dir), lock: running ? RunLock.acquire(dir, manifest.id) : undefined };
}

/** Appends the lines the store holds past the copy's, indexing and hashing them on the way. */
export function appendStoreLines(storage: RunStorage, id: string, dir: string, copy: RunCopy): Promise<void> {
  return appendLines(storage.readLines(id, copy.lines), dir, copy);
}

/** Appends `lines` to the copy, indexing and hashing them on the way. */
export async function appendLines(lines: AsyncIterable<string>, dir: string, copy: RunCopy): Promise<void> {
  let text = '';
  let held = 0;
  const flush = async (): Promise<void> => {
    if (held === 0) return;
    await appendFile(join(dir, RESULTS_FILE), text);
    text = '';
    held = 0;
  };
  for await (const line of lines) {
    const withNewline = `${line}\n`;
    const length = Buffer.byteLength(withNewline);
    copy.hash.line(line);
    try {
      copy.index.add(JSON.parse(line) as RowResult, copy.bytes, length);
    } catch {
      // A line that is not JSON: the index is given up (the viewer reads the file, and says what is wrong).
      copy.index.abandon();
    }
    copy.bytes += length;
    copy.lines += 1;
    text += withNewline;
    if (++held >= WRITE_EVERY) await flush();
  }
  await flush();
}

/** The index made usable for the lines copied; the lock (of a run that was running) released. */
export function finishCopy(copy: RunCopy): void {
  copy.index.finish({ bytes: copy.bytes, ...copy.hash.value() });
  copy.lock?.release();
}

/** The store's manifest a folder was last written from, as text (undefined: none yet). */
export function copiedManifest(dir: string): Promise<string | undefined> {
  return readFile(join(dir, COPIED_FILE), 'utf8').catch(() => undefined);
}

/** The folder's manifest made the store's (atomically), unless it already is. */
export async function writeCopiedManifest(dir: string, manifest: RunManifest): Promise<void> {
  const text = JSON.stringify(manifest);
  if ((await copiedManifest(dir)) === text) return;
  await writeFile(join(dir, `${MANIFEST_FILE}.tmp`), `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(join(dir, `${MANIFEST_FILE}.tmp`), join(dir, MANIFEST_FILE));
  await writeFile(join(dir, COPIED_FILE), text);
}

/** The change number a folder's rows were copied at; undefined: not known (an older serve's copy, or rows read from the store). */
export async function copiedChange(dir: string): Promise<number | undefined> {
  const text = await readFile(join(dir, CHANGE_FILE), 'utf8').catch(() => undefined);
  const change = text === undefined ? Number.NaN : Number(text);
  return Number.isSafeInteger(change) ? change : undefined;
}

export async function writeCopiedChange(dir: string, change: number): Promise<void> {
  await writeFile(join(dir, CHANGE_FILE), String(change));
}
