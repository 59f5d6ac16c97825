import { closeSync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RowResult } from '../experiment/types.js';
import { writeFileAtomic } from './atomic-write.js';
import { resumeCommandOf } from './abandoned-run.js';
import { ResultsHash } from './results-integrity.js';
import { RowOffsets } from './row-offsets.js';
import type { RunLock } from './run-lock.js';
import { RunStoreError } from './store-error.js';
import { storeWriteError, writeFailureCode } from './write-error.js';
import { ViewIndexWriter, removeViewIndex } from './view-index-writer.js';
import type { ManifestPatch, ResultsIntegrity, RunHandleLike, RunManifest } from './types.js';
import { markDirty, PRIORITY, turnWritten, type TurnFile } from '../write-turn.js';

export const MANIFEST_FILE = 'manifest.json';
export const RESULTS_FILE = 'results.jsonl';

export function manifestText(manifest: RunManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * The writing side of one run folder. Rows are written synchronously on a descriptor opened
 * for appending, all the rows of one event-loop turn in one `write` (write-turn.ts): a row is
 * in the file (the OS page cache) once `written` resolves, so killing the process loses
 * nothing reported done and tears at most the lines being written. Being synchronous also
 * keeps lines whole when many rows finish at once. Measured for 100,000 rows of ~300 bytes:
 * 0.2-0.4 s with a write per line (~250,000 rows/s) against ~4.9 s for an ordered queue of
 * async FileHandle writes (see test/store/run-store.test.ts).
 */
export class RunHandle implements RunHandleLike, TurnFile {
  readonly id: string;
  readonly dir: string;
  #manifest: RunManifest;
  #fd: number | undefined;
  /** Manifest writes run one after another so an older one never lands last. */
  #manifestWrite: Promise<void> = Promise.resolve();
  /** Where every row of the results file is, ours and (on resume) the earlier attempt's. */
  readonly #offsets: RowOffsets;
  /** Bytes in the results file: where the next row starts. */
  #size: number;
  /** This process's ownership of the run folder, released by `close`. */
  #lock: RunLock | undefined;
  /** Lines appended this turn, written together at its end. */
  #queued: string[] = [];
  /** The failure of a queued write, thrown to the next `append` or `written`. */
  #writeError: unknown;
  /** A failed write left part of a line that could not be cut off: the file's lines are not known. */
  #torn = false;
  /** Count and sha256 of the lines in the file, fed as they are written (an earlier attempt's by `open`). */
  readonly #hash: ResultsHash;
  readonly priority = PRIORITY.results;
  /**
   * The viewer's index of the rows, written beside them (view-index-writer.ts); on resume, the
   * one `RunStore.open` began with the earlier attempt's rows. Without one (a caller that gave
   * the offsets of stored rows but no index), the run has none and the viewer reads its file.
   */
  readonly #index: ViewIndexWriter | undefined;

  /**
   * @param stored on resume: the offsets of the rows already in the file and its size after
   * any torn tail was cut, the hash of its lines and the view index of them (see RunStore.open)
   */
  constructor(
    dir: string,
    manifest: RunManifest,
    stored: { offsets: RowOffsets; size: number; hash?: ResultsHash; index?: ViewIndexWriter } = { offsets: new RowOffsets(), size: 0 },
    lock?: RunLock,
  ) {
    this.#hash = stored.hash ?? new ResultsHash();
    this.#lock = lock;
    this.id = manifest.id;
    this.dir = dir;
    this.#manifest = manifest;
    this.#offsets = stored.offsets;
    this.#size = stored.size;
    this.#fd = openSync(join(dir, RESULTS_FILE), 'a');
    if (stored.index !== undefined) this.#index = stored.index;
    else if (stored.size === 0) this.#index = new ViewIndexWriter(dir);
    else removeViewIndex(dir);
  }

  get manifest(): RunManifest {
    return this.#manifest;
  }

  get resultsPath(): string {
    return join(this.dir, RESULTS_FILE);
  }

  /**
   * Queues the row's line; it is written with the other rows of this turn (see write-turn.ts).
   * Await `written` before treating the row as stored.
   */
  append(row: RowResult): void {
    if (this.#fd === undefined) {
      throw new RunStoreError('STORE_CLOSED', `run ${this.id} is closed; row ${row.index} was not stored`);
    }
    if (this.#writeError !== undefined) throw this.#writeError;
    const line = `${JSON.stringify(row)}\n`;
    const length = Buffer.byteLength(line);
    this.#offsets.add(row.index, row.repeat, this.#size, length);
    this.#index?.add(row, this.#size, length);
    this.#size += length;
    this.#queued.push(line);
    markDirty(this);
  }

  /**
   * Resolves once every appended row is in the file; rejects with the write's error if one failed.
   * With nothing of ours queued it does not wait for the turn: other files' lines (the report a
   * row's `row-end` wrote) would otherwise hold every next row back a whole turn.
   */
  async written(): Promise<void> {
    if (this.#queued.length > 0) await turnWritten();
    if (this.#writeError !== undefined) throw this.#writeError;
  }

  /** Writes the queued rows in one call (write-turn.ts); a failure is kept for `append`/`written`. */
  flush(): void {
    const fd = this.#fd;
    if (this.#queued.length === 0 || fd === undefined) return;
    const bytes = Buffer.from(this.#queued.join(''), 'utf8');
    const rows = this.#queued.length;
    this.#queued = [];
    // Regular files take the whole buffer in one call; the loop only guards a short write.
    let offset = 0;
    try {
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      this.#hash.update(bytes, rows);
      // The view index writes its columns every FLUSH_EVERY rows and at `close`, not every turn:
      // it is read only once complete (a killed run's is never read, see view-index-writer.ts).
    } catch (error) {
      this.#index?.abandon();
      // A failed write (a full disk) may leave part of a line: cut the file back to its last whole
      // line, so it holds exactly the rows written before (and `--resume` goes on from there).
      const before = this.#size - bytes.length;
      this.#offsets.truncate(this.#offsets.size - rows);
      try {
        ftruncateSync(fd, before);
        this.#size = before;
      } catch {
        this.#size = fstatSync(fd).size;
        this.#torn = true;
      }
      this.#writeError = storeWriteError(error, this.resultsPath, this.#resume());
    }
  }

  /**
   * The results file's row count and hash as written so far; undefined when a failed write left
   * part of a line it could not cut off (what the file holds is then not known line by line).
   */
  integrity(): ResultsIntegrity | undefined {
    this.flush();
    return this.#torn ? undefined : this.#hash.value();
  }

  /** The command that continues this run after a failure. */
  #resume(): string {
    return resumeCommandOf(this.#manifest);
  }

  /** The write error that stopped the rows, if one did. */
  get writeError(): unknown {
    return this.#writeError;
  }

  /**
   * Every row of the run (an earlier attempt's included) read back from the results file in
   * dataset order, one at a time: a report of 100,000 rows never holds them all. Each call is
   * a fresh pass; it may run after `close`.
   */
  async *rowsInOrder(): AsyncGenerator<RowResult> {
    this.flush();
    const file = await open(join(this.dir, RESULTS_FILE), 'r');
    try {
      let buffer = Buffer.alloc(64 * 1024);
      for (const [start, length] of this.#offsets.inOrder()) {
        if (buffer.length < length) buffer = Buffer.alloc(length);
        const { bytesRead } = await file.read(buffer, 0, length, start);
        yield this.#parseAt(buffer.toString('utf8', 0, bytesRead), start);
      }
    } finally {
      await file.close();
    }
  }

  #parseAt(text: string, start: number): RowResult {
    try {
      const row = JSON.parse(text) as RowResult;
      if (typeof row.index === 'number' && typeof row.repeat === 'number') return row;
    } catch {
      // reported below
    }
    throw new RunStoreError('STORE_CORRUPT_RESULTS', `no result row at byte ${start}: the results file changed while the run was writing it`, {
      location: { file: join(this.dir, RESULTS_FILE) },
      hint: 'another process wrote to this run; rerun it, or read results.jsonl itself',
    });
  }

  /** Shallow-merges `patch` into the manifest and rewrites it atomically. */
  updateManifest(patch: ManifestPatch): Promise<RunManifest> {
    const next: RunManifest = { ...this.#manifest, ...patch, id: this.#manifest.id };
    this.#manifest = next;
    const path = join(this.dir, MANIFEST_FILE);
    const text = manifestText(next);
    const write = this.#manifestWrite.then(() =>
      writeFileAtomic(path, text).catch(async (error: unknown) => {
        // A full disk has no room for the temporary copy, but the manifest's own blocks can take
        // its new text: not atomic, but a run that failed for space still says so.
        const full = writeFailureCode(error) === 'ENOSPC' || writeFailureCode(error) === 'EDQUOT';
        if (!full || !(await writeFile(path, text).then(() => true, () => false))) throw storeWriteError(error, path, this.#resume());
      }),
    );
    // Keep the chain alive after a failed write; the caller still sees the failure.
    this.#manifestWrite = write.catch(() => undefined);
    return write.then(() => next);
  }

  /** Closes the results file, waits for pending manifest writes, then releases the run's lock. Safe to call twice. */
  async close(): Promise<void> {
    this.flush();
    if (this.#fd !== undefined) {
      this.#index?.finish(this.#torn || this.#writeError !== undefined ? undefined : { bytes: this.#size, ...this.#hash.value() });
      closeSync(this.#fd);
      this.#fd = undefined;
    }
    try {
      await this.#manifestWrite;
    } finally {
      this.#lock?.release();
    }
  }
}
