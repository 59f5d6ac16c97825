import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { RowResult } from '../experiment/types.js';
import { ColumnBytes } from './column-bytes.js';
import { verdictOf } from './row-columns.js';
import { ROW_CACHED, ROW_ERRORED, ROW_FAILED } from './row-index-types.js';
import { VIEW_INDEX_DIR, VIEW_INDEX_META, VIEW_INDEX_VERSION, columnFiles, type ViewIndexMeta } from './view-index-format.js';

/**
 * Rows held before the columns are written out. The columns are read only once `finish` has
 * written the meta file, so they need not reach the disk with each turn's rows (a run's results
 * file does): written every turn, ten small writes per turn were most of the index's cost on a
 * fast run.
 */
export const FLUSH_EVERY = 1024;

/** A numeric column's held value that is written as `null` (a missing or non-finite number). */
const NULL = Number.NaN;

interface Column {
  name: string;
  fd: number;
  /** Text to write before the held values: a column opened late has `null`s for the rows before. */
  text: string;
}

/**
 * The rows held until the next flush, as numbers: each column's values in a Float64Array, each
 * verdict as its character code, a label only when there is one. Held as text instead (a string
 * appended to each column per row), a row left ~680 bytes of strings that lived for up to 1,024
 * rows: long enough to be copied by the young generation's collections and then promoted, which
 * on a fast run made them a large part of what the main thread promoted a row (10,000 rows,
 * V8's sampling heap profiler with objects collected by scavenges left out: ~500 bytes a row).
 */
class HeldRows {
  /** starts, lengths, index, repeat, flags, latency, cost, then each eval's score. */
  readonly numbers: Float64Array[];
  /** Each row's verdict characters, `evals` a row. */
  readonly verdicts: Uint8Array;
  /** Each eval's labels as JSON, by held row; undefined for a row without one. */
  readonly labels: Array<Array<string | undefined>>;

  constructor(readonly evals: number) {
    this.numbers = Array.from({ length: 7 + evals }, () => new Float64Array(FLUSH_EVERY));
    this.verdicts = new Uint8Array(FLUSH_EVERY * Math.max(1, evals));
    this.labels = Array.from({ length: evals }, () => new Array<string | undefined>(FLUSH_EVERY));
  }
}

/**
 * Writes a run's view index (view-index-format.ts) while its rows are appended: each row's place
 * in results.jsonl and the numbers the viewer's rows table shows, one append-only file per column,
 * so nothing of the rows is held past a flush (flat memory at any size). `finish` writes the meta
 * file that makes the index usable; an index without it (a killed run) is never read. Any failure
 * only costs the index: the viewer then reads the results file as it did before.
 */
export class ViewIndexWriter {
  readonly #dir: string;
  #columns: Column[] | undefined;
  #evalNames: string[] = [];
  #labelled: boolean[] = [];
  #rows = 0;
  #held = 0;
  #rowsHeld: HeldRows | undefined;
  #broken = false;
  /** Each column's bytes of a flush, one column at a time. */
  readonly #out = new ColumnBytes();

  /** Removes a previous index of the run folder: it described another writing of the file. */
  constructor(runDir: string) {
    this.#dir = join(runDir, VIEW_INDEX_DIR);
    removeViewIndex(runDir);
  }

  /** The row whose line is `length` bytes at `start` in results.jsonl; lines come in file order. */
  add(row: RowResult, start: number, length: number): void {
    if (this.#broken) return;
    try {
      this.#add(row, start, length);
      if (++this.#held >= FLUSH_EVERY) this.flush();
    } catch {
      this.#fail();
    }
  }

  #add(row: RowResult, start: number, length: number): void {
    const evals = row.evals ?? {};
    const columns = (this.#columns ??= this.#open(Object.keys(evals)));
    // Rows so far had no evals (the first rows errored before scoring): the evals begin here.
    if (this.#evalNames.length === 0) {
      const names = Object.keys(evals);
      if (names.length > 0) this.#addEvals(columns, names);
    }
    const names = this.#evalNames;
    // A row with an eval the first row did not have: the columns could not show it.
    for (const name in evals) if (!names.includes(name)) throw new Error(`eval ${name} not in the index`);
    const held = (this.#rowsHeld ??= new HeldRows(names.length));
    const at = this.#held;
    const numbers = held.numbers;
    let failed = row.error !== undefined;
    for (let k = 0; k < names.length; k += 1) {
      const result = evals[names[k] as string];
      const verdict = verdictOf(result);
      if (verdict === 'F' || verdict === 'E') failed = true;
      held.verdicts[at * names.length + k] = verdict.charCodeAt(0);
      (numbers[7 + k] as Float64Array)[at] = finite(result?.score);
      const label = result?.label;
      if (label !== undefined && label !== null) {
        this.#labelled[k] = true;
        (held.labels[k] as Array<string | undefined>)[at] = JSON.stringify(label);
      }
    }
    (numbers[0] as Float64Array)[at] = start;
    (numbers[1] as Float64Array)[at] = length;
    (numbers[2] as Float64Array)[at] = row.index;
    (numbers[3] as Float64Array)[at] = row.repeat;
    (numbers[4] as Float64Array)[at] = (row.error === undefined ? 0 : ROW_ERRORED) | (failed ? ROW_FAILED : 0) | (row.cached ? ROW_CACHED : 0);
    (numbers[5] as Float64Array)[at] = finite(row.latencyMs);
    (numbers[6] as Float64Array)[at] = finite(row.costUsd);
    this.#rows += 1;
  }

  #open(evalNames: string[]): Column[] {
    this.#evalNames = evalNames;
    this.#labelled = evalNames.map(() => false);
    mkdirSync(this.#dir, { recursive: true });
    return columnFiles(evalNames.length).map((name) => ({ name, fd: openSync(join(this.#dir, name), 'w'), text: '' }));
  }

  /** Evals for columns that had none: the rows before have no verdict, score or label for them. */
  #addEvals(columns: Column[], evalNames: string[]): void {
    // The rows held so far go out first, with no eval columns, as they were added.
    this.flush();
    const before = this.#rows;
    this.#evalNames = evalNames;
    this.#labelled = evalNames.map(() => false);
    this.#rowsHeld = undefined;
    for (const name of columnFiles(evalNames.length).slice(columns.length)) {
      columns.push({ name, fd: openSync(join(this.#dir, name), 'w'), text: 'null,'.repeat(before) });
    }
    // No verdict character was written yet (none per row): the earlier rows' go first.
    (columns[7] as Column).text = '-'.repeat(before * evalNames.length);
  }

  /** Writes the rows added so far to the column files. */
  flush(): void {
    const count = this.#held;
    this.#held = 0;
    if (this.#broken || this.#columns === undefined) return;
    try {
      const held = this.#rowsHeld;
      const evals = this.#evalNames.length;
      const out = this.#out;
      this.#columns.forEach((column, c) => {
        out.clear();
        if (column.text !== '') out.addText(column.text);
        column.text = '';
        if (held !== undefined && count > 0) heldBytes(out, held, c, count, evals);
        const bytes = out.bytes;
        let offset = 0;
        while (offset < bytes.length) offset += writeSync(column.fd, bytes, offset, bytes.length - offset);
      });
      if (held !== undefined) for (const labels of held.labels) labels.fill(undefined, 0, count);
    } catch {
      this.#fail();
    }
  }

  /**
   * The results file is complete: records what of it the columns describe (its first `bytes`
   * bytes, holding `rows` lines of this sha256), which makes the index usable. Without a record
   * (a results file whose lines are not known) the index is removed instead.
   */
  finish(results: { bytes: number; rows: number; sha256: string } | undefined): void {
    this.flush();
    this.#close();
    if (this.#columns === undefined) return;
    if (this.#broken || results === undefined || results.rows !== this.#rows) {
      rmSync(this.#dir, { recursive: true, force: true });
      return;
    }
    try {
      const labelled = this.#labelled.flatMap((yes, k) => (yes ? [k] : []));
      const meta: ViewIndexMeta = { version: VIEW_INDEX_VERSION, rows: this.#rows, evalNames: this.#evalNames, labelled, results };
      const path = join(this.#dir, VIEW_INDEX_META);
      writeFileSync(`${path}.tmp`, `${JSON.stringify(meta)}\n`);
      renameSync(`${path}.tmp`, path);
    } catch {
      rmSync(this.#dir, { recursive: true, force: true });
    }
  }

  /** Stops writing: the results file no longer matches what was added (a failed write). */
  abandon(): void {
    this.#fail();
  }

  #fail(): void {
    this.#broken = true;
    this.#close();
    rmSync(this.#dir, { recursive: true, force: true });
  }

  #close(): void {
    for (const column of this.#columns ?? []) {
      if (column.fd < 0) continue;
      try {
        closeSync(column.fd);
      } catch {
        // closing is all that is left to do with it
      }
      column.fd = -1;
      column.text = '';
    }
  }
}

/** The number to hold: `NULL` for a missing or non-finite one (JSON writes those as null). */
function finite(value: number | null | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : NULL;
}

/**
 * Column `c`'s bytes for the first `count` held rows, as the columns have always been written:
 * each value as JSON (`String(n)`, or `null`) followed by a comma; the verdicts as characters.
 */
function heldBytes(out: ColumnBytes, held: HeldRows, c: number, count: number, evals: number): void {
  if (c === 7) {
    out.addBytes(held.verdicts.subarray(0, count * evals));
    return;
  }
  if (c < 8 + evals) {
    const values = held.numbers[c < 7 ? c : c - 1] as Float64Array;
    for (let i = 0; i < count; i += 1) out.addNumber(values[i] as number);
    return;
  }
  const labels = held.labels[c - 8 - evals] as Array<string | undefined>;
  for (let i = 0; i < count; i += 1) {
    const label = labels[i];
    if (label === undefined) out.addNull();
    else out.addText(`${label},`);
  }
}

/** Removes a run folder's view index, if it has one. */
export function removeViewIndex(runDir: string): void {
  try {
    rmSync(join(runDir, VIEW_INDEX_DIR), { recursive: true, force: true });
  } catch {
    // an index left behind has no meta matching the new results: it is never read
  }
}
