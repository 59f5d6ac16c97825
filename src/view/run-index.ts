import { open } from 'node:fs/promises';
import type { RowResult } from '../experiment/types.js';
import { EvalTallies } from '../scoring/index.js';
import { ResultsHash, type FoundResults, type ViewIndexData } from '../store/index.js';
import type { IndexEntry, LiveSummary, RowIndex } from './api-types.js';
import { appendRow, emptyColumns, entryAt } from '../store/row-columns.js';
import { readRowsAt, readRowsInRange } from './row-reads.js';

const CHUNK = 1 << 20;

/** Rows by their place in the run's finish order, from somewhere other than a results file here. */
export interface RowSource {
  rowsAt(positions: readonly number[]): Promise<RowResult[]>;
}
const NEWLINE = 0x0a;

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

/**
 * Every complete row of one results file as index columns, plus where its line sits so a page
 * of rows can be read back without reading the file. It only ever reads what was appended
 * since the last `refresh`, so following a live run costs the new bytes only. A torn last line
 * (no newline yet) waits for the next refresh.
 */
export class RunIndex {
  #columns: RowIndex;
  /** The store's index as JSON text, parsed only when a route needs its values (`readFrom`). */
  #columnsText: string | undefined;
  #columnsParsed = true;
  /** Byte offset and length of each row's line. */
  starts: number[] = [];
  lengths: number[] = [];
  #evalNames: string[] | undefined;
  #tallies: EvalTallies | undefined;
  #errored = 0;
  #size = 0;
  #refreshing: Promise<number> | undefined;
  readonly #live: boolean;
  /** Count and hash of the complete lines read, checked against a finished run's manifest. */
  #hash = new ResultsHash();
  #missing = false;
  /** Bytes of a line without its newline yet at the end of the last read. */
  #pending = 0;
  /** The results the run's view index described, when the index was read from it (`adopt`). */
  #adopted: ViewIndexData['results'] | undefined;
  /** Where rows are read when they are not in a file here: the team store, by their place (`readFrom`). */
  #source: RowSource | undefined;

  /**
   * @param evalNames when known (a finished run's summary); else taken from the first row.
   * @param scoreRanges the evals' ranges (a running run's manifest options), clipping live intervals.
   * A finished run has its summary: only a running one needs the live tallies, which cost
   * about as much as the index itself.
   */
  constructor(
    readonly path: string,
    evalNames?: string[],
    readonly scoreRanges: ReadonlyMap<string, readonly [number, number]> = new Map(),
  ) {
    this.#evalNames = evalNames;
    this.#live = evalNames === undefined;
    this.#columns = emptyColumns(evalNames ?? []);
  }

  /** What the API sends; grows as rows are read. */
  get columns(): RowIndex {
    if (!this.#columnsParsed) {
      this.#columns = JSON.parse(this.#columnsText as string) as RowIndex;
      this.#columnsParsed = true;
    }
    return this.#columns;
  }

  set columns(columns: RowIndex) {
    this.#columns = columns;
    this.#columnsParsed = true;
    this.#columnsText = undefined;
  }

  /**
   * The columns as the JSON text the API sends, when they came as text from the store: sent as
   * they are, a million rows' index is not parsed and written again (seconds of a first open).
   */
  get columnsJson(): string | undefined {
    return this.#columnsText;
  }

  /** Rows read so far. */
  get count(): number {
    return this.#source ? (this.#adopted?.rows ?? 0) : this.starts.length;
  }

  /** Rows from position `from` on, one entry each (a live event's new rows). */
  entriesFrom(from: number): IndexEntry[] {
    const entries: IndexEntry[] = [];
    for (let p = from; p < this.count; p++) entries.push(entryAt(this.columns, p));
    return entries;
  }

  /** Positions of one dataset index's rows (its repeats), in file order. */
  positionsOf(index: number): number[] {
    const positions: number[] = [];
    const column = this.columns.index;
    for (let p = 0; p < column.length; p++) if (column[p] === index) positions.push(p);
    return positions;
  }

  get evalNames(): string[] {
    return this.#evalNames ?? [];
  }

  /** Reads rows appended since the last call; resolves to the position of the first new row. */
  refresh(): Promise<number> {
    if (this.#source) return Promise.resolve(this.count);
    // One reader at a time: two would read the same bytes twice.
    const previous = this.#refreshing ?? Promise.resolve(0);
    const next = previous.then(() => this.#readNew());
    this.#refreshing = next;
    return next;
  }

  /**
   * Starts from the run's view index instead of reading its results file: the next refresh reads
   * on from the end of what the index describes. Only before the first refresh.
   */
  adopt(data: ViewIndexData): void {
    this.#evalNames = data.columns.evalNames;
    this.columns = data.columns;
    this.starts = data.starts;
    this.lengths = data.lengths;
    this.#size = data.results.bytes;
    this.#adopted = data.results;
  }

  /**
   * A completed run whose rows are not in a file here: the index is `columnsJson` (the store's), the
   * rows are read from `source` by their place in finish order, and nothing is ever appended.
   * Only before the first refresh.
   */
  readFrom(columnsJson: string, evalNames: string[], source: RowSource, results: { rows: number; sha256: string }): void {
    this.#evalNames = evalNames;
    this.#columnsText = columnsJson;
    this.#columnsParsed = false;
    this.#adopted = { bytes: 0, ...results };
    this.#source = source;
  }

  /** True while the rows come from the run's view index (its results lines were not parsed). */
  get fromViewIndex(): boolean {
    return this.#adopted !== undefined;
  }

  /** What the last refresh found, for checkResults. */
  found(): FoundResults {
    const base = { missing: this.#missing, torn: this.#pending > 0 };
    const adopted = this.#adopted;
    if (adopted === undefined) return { ...this.#hash.value(), ...base };
    // The index stands for the lines it describes; lines past them make a different file, whose
    // hash is not known without reading it all (a finished run's then does not match its record).
    const more = this.#hash.rows > 0 || this.#pending > 0;
    return { rows: adopted.rows + this.#hash.rows, sha256: more ? 'unknown (lines after the view index)' : adopted.sha256, ...base };
  }

  /** Per-eval statistics of the rows so far, by the same code the run's summary uses. */
  liveSummary(): LiveSummary {
    return { rows: this.count, errored: this.#errored, evals: this.#tallies?.finish() ?? [] };
  }

  async #readNew(): Promise<number> {
    let from = this.count;
    let file;
    try {
      file = await open(this.path, 'r');
      this.#missing = false;
    } catch (error) {
      if (isErrno(error, 'ENOENT')) {
        this.#missing = true;
        return from;
      }
      throw error;
    }
    try {
      // Shorter than what was read: `--resume` cut a torn tail and appends from there. Start over
      // rather than read from the middle of a line.
      if ((await file.stat()).size < this.#size) {
        this.#reset();
        from = 0;
      }
      let buffer = Buffer.alloc(CHUNK);
      // Bytes of a line that began in the previous read sit at the buffer's start: the next read
      // goes after them, so no chunk is copied to join the two.
      let carry = 0;
      let position = this.#size;
      for (;;) {
        if (carry === buffer.length) {
          // One line longer than the buffer: grow it.
          const bigger = Buffer.alloc(buffer.length * 2);
          buffer.copy(bigger, 0, 0, carry);
          buffer = bigger;
        }
        const { bytesRead } = await file.read(buffer, carry, buffer.length - carry, position);
        if (bytesRead === 0) break;
        position += bytesRead;
        const end = carry + bytesRead;
        let start = 0;
        for (let nl = buffer.indexOf(NEWLINE, start); nl !== -1 && nl < end; nl = buffer.indexOf(NEWLINE, start)) {
          this.#add(buffer, start, nl, this.#size);
          this.#size += nl + 1 - start;
          start = nl + 1;
        }
        carry = end - start;
        buffer.copy(buffer, 0, start, end);
      }
      this.#pending = carry;
    } finally {
      await file.close();
    }
    return from;
  }

  #reset(): void {
    this.columns = emptyColumns(this.#evalNames ?? []);
    this.starts.length = 0;
    this.lengths.length = 0;
    this.#tallies = undefined;
    this.#errored = 0;
    this.#size = 0;
    this.#hash = new ResultsHash();
    this.#adopted = undefined;
  }

  /** One line, bytes [from, to) of `data`, stored at `offset` in the file. */
  #add(data: Buffer, from: number, to: number, offset: number): void {
    // A full parse of every line: measured faster than reading only the index's fields from the
    // bytes with a scanner in JavaScript (2× slower on short rows, 1.3× faster on 8 KB ones).
    const text = data.toString('utf8', from, to);
    const blank = text.trim() === '';
    this.#hash.update(data.subarray(from, to + 1), blank ? 0 : 1);
    if (blank) return;
    let row: RowResult;
    try {
      row = JSON.parse(text) as RowResult;
    } catch {
      // A damaged line is not a row; the store reports it where it matters (resume, reports).
      return;
    }
    if (typeof row !== 'object' || row === null || typeof row.index !== 'number') return;
    if (this.#evalNames === undefined) {
      this.#evalNames = Object.keys(row.evals ?? {});
      this.columns = emptyColumns(this.#evalNames);
    }
    if (this.#live) {
      this.#tallies ??= new EvalTallies(this.#evalNames, this.scoreRanges);
      this.#tallies.add(row);
    }
    if (row.error !== undefined) this.#errored++;
    row.evals ??= {};
    appendRow(this.columns, row);
    this.starts.push(offset);
    this.lengths.push(to + 1 - from);
  }

  /** The rows at positions [from, to), read with one read: their lines are contiguous. */
  async rowsInRange(from: number, to: number): Promise<RowResult[]> {
    if (this.#source) return this.#source.rowsAt(Array.from({ length: Math.max(0, Math.min(to, this.count) - from) }, (_, k) => from + k));
    return readRowsInRange(this.path, this.starts, this.lengths, from, to);
  }

  /** The full rows at these positions, read from the file by their byte ranges. */
  async rowsAt(positions: readonly number[]): Promise<RowResult[]> {
    if (this.#source) return this.#source.rowsAt(positions.filter((p) => p >= 0 && p < this.count));
    return readRowsAt(this.path, this.starts, this.lengths, positions);
  }
}

/** The text a search looks in: every value a person might search for, lower-cased. */
export function searchableText(row: RowResult): string {
  return JSON.stringify([row.input, row.output, row.expectedOutput, row.metadata, row.error, row.evals, row.toolCalls]).toLowerCase();
}
