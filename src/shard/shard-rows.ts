import { closeSync, openSync, readSync } from 'node:fs';
import type { RowResult } from '../experiment/types.js';
import { RunStoreError, type StoredRun } from '../store/index.js';

/** Bytes read at a time: a shard's rows are nearly in dataset order, so one read serves thousands. */
const WINDOW = 1 << 20;

/**
 * One shard's rows in dataset order (index, then repeat), a row at a time, each as the bytes of
 * its stored line: what the merge copies and parses once. `index`, `repeat` and the line
 * (`bytes[from, from + length)`, with its `\n`) describe the current row until `advance`.
 * `advance` gives a promise only when it has to wait (a run's rows given as objects): per row of
 * a results file it is a plain call, so a million rows cost no promise each.
 */
export interface ShardRows {
  done: boolean;
  index: number;
  repeat: number;
  bytes: Buffer;
  from: number;
  length: number;
  /** Where the line was read from, for errors: the results file and the line's byte offset there. */
  path: string;
  start: number;
  /** Moves to the next row (the first, on the first call). */
  advance(): Promise<void> | undefined;
  close(): Promise<void>;
}

/** The rows of a shard: its results file read through a window when it is a run folder, else its rows written out. */
export async function shardRows(run: StoredRun): Promise<ShardRows> {
  if (run.checkedResults) {
    const { path, offsets } = await run.checkedResults();
    const { order, data } = offsets.ordered();
    return new FileRows(path, openSync(path, 'r'), order, data);
  }
  return new WrittenRows(run);
}

/** Rows read from a results file at the offsets its scan found (RowOffsets.ordered). */
class FileRows implements ShardRows {
  done = false;
  index = 0;
  repeat = 0;
  bytes: Buffer = Buffer.allocUnsafe(WINDOW);
  from = 0;
  length = 0;
  start = 0;
  readonly path: string;
  #fd: number | undefined;
  readonly #order: Uint32Array;
  readonly #data: Float64Array;
  #next = 0;
  /** The window holds the file's bytes [#windowStart, #windowStart + #windowLength). */
  #windowStart = 0;
  #windowLength = 0;

  constructor(path: string, fd: number, order: Uint32Array, data: Float64Array) {
    this.path = path;
    this.#fd = fd;
    this.#order = order;
    this.#data = data;
  }

  advance(): Promise<void> | undefined {
    if (this.#next >= this.#order.length) {
      this.done = true;
      return undefined;
    }
    const at = 4 * (this.#order[this.#next++] as number);
    const data = this.#data;
    this.index = data[at] as number;
    this.repeat = data[at + 1] as number;
    const start = (this.start = data[at + 2] as number);
    const length = (this.length = data[at + 3] as number);
    if (start >= this.#windowStart && start + length <= this.#windowStart + this.#windowLength) {
      this.from = start - this.#windowStart;
      return undefined;
    }
    this.#read(start, length);
    return undefined;
  }

  /**
   * A read of the page cache the scan just filled, made in this thread: through the thread
   * pool, the wait for a pool thread on a busy machine was a tenth of the merge's wall.
   */
  #read(start: number, length: number): void {
    // The bytes of the last window are copied out before the next row is asked for: reused.
    if (length > this.bytes.length) this.bytes = Buffer.allocUnsafe(length);
    const bytesRead = readSync(this.#fd as number, this.bytes, 0, this.bytes.length, start);
    this.#windowStart = start;
    this.#windowLength = bytesRead;
    this.from = 0;
    // The file was checked a moment ago; a shorter read means it changed since.
    if (bytesRead < length) {
      throw new RunStoreError('STORE_CORRUPT_RESULTS', `no result row at byte ${start}: the results file changed while it was read`, { location: { file: this.path } });
    }
  }

  async close(): Promise<void> {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/** Rows a stored run gives as objects (a run not opened from a folder): each written out as the runner writes it. */
class WrittenRows implements ShardRows {
  done = false;
  index = 0;
  repeat = 0;
  bytes: Buffer = Buffer.alloc(0);
  from = 0;
  length = 0;
  start = 0;
  readonly path: string;
  readonly #rows: AsyncGenerator<RowResult>;

  constructor(run: StoredRun) {
    this.path = run.dir;
    this.#rows = run.rowsInOrder();
  }

  async advance(): Promise<void> {
    const next = await this.#rows.next();
    if (next.done === true) {
      this.done = true;
      return;
    }
    const row = next.value;
    this.index = row.index;
    this.repeat = row.repeat;
    this.bytes = Buffer.from(`${JSON.stringify(row)}\n`);
    this.from = 0;
    this.length = this.bytes.length;
  }

  async close(): Promise<void> {
    await this.#rows.return(undefined);
  }
}
