import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { RowResult } from '../experiment/types.js';
import { writeFileAtomic } from './atomic-write.js';
import { RunStoreError } from './store-error.js';
import type { ManifestPatch, RunHandleLike, RunManifest } from './types.js';

export const MANIFEST_FILE = 'manifest.json';
export const RESULTS_FILE = 'results.jsonl';

export function manifestText(manifest: RunManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * The writing side of one run folder. Rows are written synchronously, one `write` per line,
 * on a descriptor opened for appending: a finished row is in the file (the OS page cache)
 * before `append` returns, so killing the process loses nothing finished and tears at most
 * the line being written. Being synchronous also keeps lines whole when many rows finish at
 * once. Measured for 100,000 rows of ~300 bytes: 0.2-0.4 s this way (~250,000 rows/s) against
 * ~4.9 s for an ordered queue of async FileHandle writes (see test/store/run-store.test.ts).
 */
export class RunHandle implements RunHandleLike {
  readonly id: string;
  readonly dir: string;
  #manifest: RunManifest;
  #fd: number | undefined;
  /** Manifest writes run one after another so an older one never lands last. */
  #manifestWrite: Promise<void> = Promise.resolve();

  constructor(dir: string, manifest: RunManifest) {
    this.id = manifest.id;
    this.dir = dir;
    this.#manifest = manifest;
    this.#fd = openSync(join(dir, RESULTS_FILE), 'a');
  }

  get manifest(): RunManifest {
    return this.#manifest;
  }

  get resultsPath(): string {
    return join(this.dir, RESULTS_FILE);
  }

  append(row: RowResult): void {
    const fd = this.#fd;
    if (fd === undefined) {
      throw new RunStoreError('STORE_CLOSED', `run ${this.id} is closed; row ${row.index} was not stored`);
    }
    const bytes = Buffer.from(`${JSON.stringify(row)}\n`, 'utf8');
    // Regular files take the whole buffer in one call; the loop only guards a short write.
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
  }

  /** Shallow-merges `patch` into the manifest and rewrites it atomically. */
  updateManifest(patch: ManifestPatch): Promise<RunManifest> {
    const next: RunManifest = { ...this.#manifest, ...patch, id: this.#manifest.id };
    this.#manifest = next;
    const write = this.#manifestWrite.then(() => writeFileAtomic(join(this.dir, MANIFEST_FILE), manifestText(next)));
    // Keep the chain alive after a failed write; the caller still sees the failure.
    this.#manifestWrite = write.catch(() => undefined);
    return write.then(() => next);
  }

  /** Closes the results file and waits for pending manifest writes. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#fd !== undefined) {
      closeSync(this.#fd);
      this.#fd = undefined;
    }
    await this.#manifestWrite;
  }
}
