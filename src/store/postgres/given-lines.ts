import { createHash, type Hash } from 'node:crypto';
import { batchOfLines, type LineBatch } from '../line-batch.js';
import { lineKeys, type LineKeys } from '../line-keys.js';
import type { ResultsIntegrity } from '../types.js';
import { KeySeen } from './key-seen.js';
import { WrittenRows } from './written-rows.js';

/** Places per range checked in the database: ~5 MB of 500-byte rows, well inside what one string_agg holds. */
export const RANGE_ROWS = 10_000;
/** Bytes per range at most, so a run of long rows never asks the server for a string near its 1 GB limit. */
const RANGE_BYTES = 16 << 20;

/** A range of places [first, first + rows) and the sha256 of its lines, each with its `\n` (none: not hashed, see addBatch). */
export interface LineRange {
  first: number;
  rows: number;
  sha256?: string;
}

/**
 * The lines of one run this process gave the store, from place 0 on without a gap: their count
 * and sha256 as a results file has them, the same lines' sha256 in ranges of places (what the
 * database hashes of its rows at the completion, pg-range-check.ts), and whether an (index,
 * repeat) came twice. With it a completion checks the stored rows where they are instead of
 * reading them all back.
 */
export class GivenLines {
  /** Which of the lines this process itself COPYed in, and in which transactions. */
  readonly written = new WrittenRows();
  readonly #whole: Hash = createHash('sha256');
  readonly #ranges: LineRange[] = [];
  readonly #seen = new KeySeen();
  #range: Hash = createHash('sha256');
  #rangeFirst = 0;
  #rangeRows = 0;
  #rangeBytes = 0;
  /** The range being filled holds lines given unhashed. */
  #rangeUnhashed = false;
  #next = 0;
  #duplicate = false;

  /** The place the next line given takes. */
  get next(): number {
    return this.#next;
  }

  get duplicate(): boolean {
    return this.#duplicate;
  }

  /** Takes the lines at places next, next + 1, ...; false (and nothing taken) when one is not a result row. */
  add(lines: readonly string[]): boolean {
    const batch = batchOfLines(lines, this.#next, '');
    const keys = keysOrNone(batch);
    if (keys === undefined) return false;
    this.addBatch(batch, keys);
    return true;
  }

  /**
   * Takes a batch of lines (its first at place next) with their keys: hashed as the bytes they are,
   * a range at a time. Lines this process COPYed in itself may be given `unhashed` by range (their
   * rows are checked by their xmin; a range holding one has no sha256, and a completion that finds
   * them changed reads the rows back instead): half the hashing of a push.
   */
  addBatch(batch: LineBatch, keys: LineKeys, unhashed = false): void {
    for (let k = 0; k < batch.count; k += 1) if (this.#seen.mark(keys.index[k] as number, keys.repeat[k] as number)) this.#duplicate = true;
    this.#whole.update(batch.bytes);
    // A range begun with hashed lines (noted: another push stored them) stays hashed whole, so the server can check it.
    if (unhashed && this.#rangeRows === 0) this.#rangeUnhashed = true;
    // Whole runs of lines go to the range's hash at once: a hash call a line cost more than the hashing.
    let from = 0;
    for (let k = 0; k < batch.count; k += 1) {
      const end = (batch.ends[k] as number) + 1;
      this.#rangeRows += 1;
      if (this.#rangeRows >= RANGE_ROWS || this.#rangeBytes + end - from >= RANGE_BYTES) {
        if (!this.#rangeUnhashed) this.#range.update(batch.bytes.subarray(from, end));
        from = end;
        this.#closeRange();
        if (unhashed && k + 1 < batch.count) this.#rangeUnhashed = true;
      }
    }
    if (from < batch.bytes.length) {
      if (!this.#rangeUnhashed) this.#range.update(batch.bytes.subarray(from));
      this.#rangeBytes += batch.bytes.length - from;
    }
    this.#next += batch.count;
  }

  /** The count and sha256 of every line given. */
  value(): ResultsIntegrity {
    return { rows: this.#next, sha256: this.#whole.copy().digest('hex') };
  }

  /** Every range, the last one (fewer lines) included. */
  ranges(): LineRange[] {
    const last = this.#rangeRows === 0 ? [] : [this.#rangeOf(this.#range.copy())];
    return [...this.#ranges, ...last];
  }

  #closeRange(): void {
    this.#ranges.push(this.#rangeOf(this.#range));
    this.#rangeFirst += this.#rangeRows;
    this.#rangeRows = 0;
    this.#rangeBytes = 0;
    this.#range = createHash('sha256');
    this.#rangeUnhashed = false;
  }

  #rangeOf(hash: Hash): LineRange {
    const range = { first: this.#rangeFirst, rows: this.#rangeRows };
    return this.#rangeUnhashed ? range : { ...range, sha256: hash.digest('hex') };
  }
}

/** The lines' keys, or undefined when one is not a result row (then the read-back decides what is wrong). */
export function keysOrNone(batch: LineBatch): LineKeys | undefined {
  try {
    return lineKeys(batch);
  } catch {
    return undefined;
  }
}
