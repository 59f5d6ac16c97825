import { closeSync, openSync, writeSync } from 'node:fs';
import type { ResultsHash } from '../store/index.js';

/** Bytes gathered before one write. */
const CHUNK = 1 << 20;

/**
 * Appends text to a file in 1 MB writes. A run appends one row per write so a kill loses
 * nothing finished; a merge has nothing to lose (it is removed when it fails, and the shards
 * stay), and one write per row of 100,000 cost ~1 s of system time here.
 */
export class ChunkedWriter {
  #fd: number | undefined;
  #parts: string[] = [];
  #size = 0;
  #rows = 0;
  readonly #hash: ResultsHash | undefined;

  /** `hash`, when given, takes each chunk as it is written (each `write` is one row). */
  constructor(path: string, hash?: ResultsHash) {
    this.#fd = openSync(path, 'a');
    this.#hash = hash;
  }

  /** One row's line, with its newline. */
  write(text: string): void {
    this.#parts.push(text);
    this.#rows += 1;
    this.#size += text.length;
    if (this.#size >= CHUNK) this.#flush();
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
    if (this.#fd === undefined || this.#parts.length === 0) return;
    const bytes = Buffer.from(this.#parts.join(''), 'utf8');
    this.#hash?.update(bytes, this.#rows);
    this.#parts = [];
    this.#size = 0;
    this.#rows = 0;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.#fd, bytes, offset, bytes.length - offset);
  }
}
