import { closeSync, openSync, writeSync } from 'node:fs';
import type { ResultsHash } from '../store/index.js';

/** Bytes gathered before one write. */
const CHUNK = 4 << 20;

/**
 * Appends lines to a file in 4 MB writes, copying each line's bytes in as they come (a line read
 * from a shard is never decoded and encoded again to be written). A run appends one row per
 * write so a kill loses nothing finished; a merge has nothing to lose (it is removed when it
 * fails, and the shards stay), and one write per row of 100,000 cost ~1 s of system time here.
 */
export class ChunkedWriter {
  #fd: number | undefined;
  readonly #buffer = Buffer.allocUnsafe(CHUNK);
  #size = 0;
  #rows = 0;
  readonly #hash: ResultsHash | undefined;

  /** `hash`, when given, takes each chunk as it is written (each `write` is one row). */
  constructor(path: string, hash?: ResultsHash) {
    this.#fd = openSync(path, 'a');
    this.#hash = hash;
  }

  /** One row's line, with its newline: `bytes[from, from + length)`. */
  write(bytes: Buffer, from: number, length: number): void {
    if (this.#size + length > CHUNK) this.#flush();
    if (length > CHUNK) {
      this.#out(bytes.subarray(from, from + length), 1);
      return;
    }
    bytes.copy(this.#buffer, this.#size, from, from + length);
    this.#size += length;
    this.#rows += 1;
  }

  /** One row's line as text, with its newline; returns its length in bytes. */
  writeText(text: string): number {
    const bytes = Buffer.from(text, 'utf8');
    this.write(bytes, 0, bytes.length);
    return bytes.length;
  }

  /** Writes what is left and closes the file; safe to call twice. */
  close(): void {
    if (this.#fd === undefined) return;
    try {
      this.#flush();
    } finally {
      closeSync(this.#fd);
      this.#fd = undefined;
    }
  }

  #flush(): void {
    if (this.#size === 0) return;
    this.#out(this.#buffer.subarray(0, this.#size), this.#rows);
    this.#size = 0;
    this.#rows = 0;
  }

  #out(bytes: Buffer, rows: number): void {
    if (this.#fd === undefined) return;
    this.#hash?.update(bytes, rows);
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.#fd, bytes, offset, bytes.length - offset);
  }
}
