import { closeSync, openSync, writeSync } from 'node:fs';

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

  constructor(path: string) {
    this.#fd = openSync(path, 'a');
  }

  write(text: string): void {
    this.#parts.push(text);
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
    this.#parts = [];
    this.#size = 0;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.#fd, bytes, offset, bytes.length - offset);
  }
}
