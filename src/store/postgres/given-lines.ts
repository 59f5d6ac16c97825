import { createHash, type Hash } from 'node:crypto';
import { indexAndRepeat } from '../scan-results.js';
import type { ResultsIntegrity } from '../types.js';
import { KeySeen } from './key-seen.js';

/** Places per range checked in the database: ~5 MB of 500-byte rows, well inside what one string_agg holds. */
export const RANGE_ROWS = 10_000;
/** Bytes per range at most, so a run of long rows never asks the server for a string near its 1 GB limit. */
const RANGE_BYTES = 16 << 20;

/** A range of places [first, first + rows) and the sha256 of its lines, each with its `\n`. */
export interface LineRange {
  first: number;
  rows: number;
  sha256: string;
}

/**
 * The lines of one run this process gave the store, from place 0 on without a gap: their count
 * and sha256 as a results file has them, the same lines' sha256 in ranges of places (what the
 * database hashes of its rows at the completion, pg-range-check.ts), and whether an (index,
 * repeat) came twice. With it a completion checks the stored rows where they are instead of
 * reading them all back.
 */
export class GivenLines {
  readonly #whole: Hash = createHash('sha256');
  readonly #ranges: LineRange[] = [];
  readonly #seen = new KeySeen();
  #range: Hash = createHash('sha256');
  #rangeFirst = 0;
  #rangeRows = 0;
  #rangeBytes = 0;
  #next = 0;
  #duplicate = false;
  readonly #buffer = Buffer.allocUnsafe(1 << 20);
  #at = 0;

  /** The place the next line given takes. */
  get next(): number {
    return this.#next;
  }

  get duplicate(): boolean {
    return this.#duplicate;
  }

  /** Takes the lines at places next, next + 1, ...; false (and nothing taken) when one is not a result row. */
  add(lines: readonly string[]): boolean {
    const keys: Array<[number, number]> = [];
    for (const line of lines) {
      const key = headKey(line);
      if (key === undefined) return false;
      keys.push(key);
    }
    for (const [index, repeat] of keys) if (this.#seen.mark(index, repeat)) this.#duplicate = true;
    for (const line of lines) {
      // Written into one reused buffer, hashed a buffer at a time by both hashes: a hash call a line cost more than the hashing.
      if (this.#at + line.length * 3 + 1 > this.#buffer.length) this.#flush();
      const before = this.#at;
      if (line.length * 3 + 1 > this.#buffer.length) {
        const bytes = Buffer.from(`${line}\n`, 'utf8');
        this.#whole.update(bytes);
        this.#range.update(bytes);
        this.#rangeBytes += bytes.length;
      } else {
        this.#at += this.#buffer.write(line, this.#at, 'utf8');
        this.#buffer[this.#at] = 0x0a;
        this.#at += 1;
        this.#rangeBytes += this.#at - before;
      }
      this.#rangeRows += 1;
      if (this.#rangeRows >= RANGE_ROWS || this.#rangeBytes >= RANGE_BYTES) {
        this.#flush();
        this.#closeRange();
      }
    }
    this.#flush();
    this.#next += lines.length;
    return true;
  }

  #flush(): void {
    if (this.#at === 0) return;
    const bytes = this.#buffer.subarray(0, this.#at);
    this.#whole.update(bytes);
    this.#range.update(bytes);
    this.#at = 0;
  }

  /** The count and sha256 of every line given. */
  value(): ResultsIntegrity {
    return { rows: this.#next, sha256: this.#whole.copy().digest('hex') };
  }

  /** Every range, the last one (fewer lines) included. */
  ranges(): LineRange[] {
    const last = this.#rangeRows === 0 ? [] : [{ first: this.#rangeFirst, rows: this.#rangeRows, sha256: this.#range.copy().digest('hex') }];
    return [...this.#ranges, ...last];
  }

  #closeRange(): void {
    this.#ranges.push({ first: this.#rangeFirst, rows: this.#rangeRows, sha256: this.#range.digest('hex') });
    this.#rangeFirst += this.#rangeRows;
    this.#rangeRows = 0;
    this.#rangeBytes = 0;
    this.#range = createHash('sha256');
  }
}

/** The line's (index, repeat), or undefined when it is not a result row (then the read-back decides what is wrong). */
function headKey(line: string): [number, number] | undefined {
  try {
    return indexAndRepeat(line, '', 0);
  } catch {
    return undefined;
  }
}
