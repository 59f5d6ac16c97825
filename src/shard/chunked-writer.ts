import { open, type FileHandle } from 'node:fs/promises';
import type { ResultsHash } from '../store/index.js';

/** Bytes gathered before one write. */
const CHUNK = 4 << 20;

/**
 * Appends lines to a file in 4 MB writes, copying each line's bytes in as they come (a line read
 * from a shard is never decoded and encoded again to be written). A run appends one row per
 * write so a kill loses nothing finished; a merge has nothing to lose (it is removed when it
 * fails, and the shards stay), and one write per row of 100,000 cost ~1 s of system time here.
 * Two buffers: one fills while the other is written by the thread pool, so the kernel's copy
 * of ~500 MB (a twelfth of a million-row merge's main thread when written in place) runs
 * beside the merge. `write` gives a promise only when both are busy.
 */
export class ChunkedWriter {
  readonly #file: FileHandle;
  #buffer = Buffer.allocUnsafe(CHUNK);
  #spare = Buffer.allocUnsafe(CHUNK);
  /** The spare buffer's write, until it is done. */
  #writing: Promise<void> | undefined;
  #position = 0;
  #size = 0;
  #rows = 0;
  #closed = false;
  readonly #hash: ResultsHash | undefined;

  private constructor(file: FileHandle, hash: ResultsHash | undefined) {
    this.#file = file;
    this.#hash = hash;
  }

  /** `hash`, when given, takes each chunk as it is written (each `write` is one row). */
  static async open(path: string, hash?: ResultsHash): Promise<ChunkedWriter> {
    return new ChunkedWriter(await open(path, 'a'), hash);
  }

  /** One row's line, with its newline: `bytes[from, from + length)`, read before any promise given back settles. */
  write(bytes: Buffer, from: number, length: number): Promise<void> | undefined {
    if (this.#size + length <= CHUNK) {
      bytes.copy(this.#buffer, this.#size, from, from + length);
      this.#size += length;
      this.#rows += 1;
      return undefined;
    }
    return this.#writeAfterFlush(bytes, from, length);
  }

  /** Writes what is left and closes the file; safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#flush();
      await this.#writing;
    } finally {
      await this.#file.close();
    }
  }

  async #writeAfterFlush(bytes: Buffer, from: number, length: number): Promise<void> {
    await this.#flush();
    if (length > CHUNK) {
      // After the buffer just handed over: the writes go out one at a time, in order.
      await this.#writing;
      this.#writing = this.#out(bytes.subarray(from, from + length), 1);
      return;
    }
    bytes.copy(this.#buffer, 0, from, from + length);
    this.#size = length;
    this.#rows = 1;
  }

  /** Hands the full buffer to the thread pool and takes the spare, once the spare's own write is done. */
  async #flush(): Promise<void> {
    await this.#writing;
    if (this.#size === 0) return;
    const full = this.#buffer;
    this.#writing = this.#out(full.subarray(0, this.#size), this.#rows);
    this.#buffer = this.#spare;
    this.#spare = full;
    this.#size = 0;
    this.#rows = 0;
  }

  /** Hashes `bytes` here and now (in file order) and writes them at the end of the file. */
  #out(bytes: Buffer, rows: number): Promise<void> {
    this.#hash?.update(bytes, rows);
    const at = this.#position;
    this.#position += bytes.length;
    const writing = writeAll(this.#file, bytes, at);
    // Its failure is thrown where it is awaited (the next flush, or close), not as an unhandled rejection before.
    writing.catch(() => undefined);
    return writing;
  }
}

async function writeAll(file: FileHandle, bytes: Buffer, position: number): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await file.write(bytes, offset, bytes.length - offset, position + offset);
    offset += bytesWritten;
  }
}
