import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { RowResult } from '../experiment/types.js';
import { verdictOf } from './row-columns.js';
import { ROW_CACHED, ROW_ERRORED, ROW_FAILED } from './row-index-types.js';
import { VIEW_INDEX_DIR, VIEW_INDEX_META, VIEW_INDEX_VERSION, columnFiles, type ViewIndexMeta } from './view-index-format.js';

/**
 * Rows held before the columns are written out. The columns are read only once `finish` has
 * written the meta file, so they need not reach the disk with each turn's rows (a run's results
 * file does): written every turn, ten small writes per turn were most of the index's cost on a
 * fast run. Held, a row costs ~680 bytes of strings until the next write: 1,024 rows keep that
 * under 1 MB.
 */
const FLUSH_EVERY = 1024;

interface Column {
  name: string;
  fd: number;
  text: string;
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
  #broken = false;

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
    const [starts, lengths, index, repeat, flags, latency, cost, verdicts] = columns as [Column, Column, Column, Column, Column, Column, Column, Column];
    let failed = row.error !== undefined;
    let chars = '';
    names.forEach((name, k) => {
      const result = evals[name];
      const verdict = verdictOf(result);
      if (verdict === 'F' || verdict === 'E') failed = true;
      chars += verdict;
      (columns[8 + k] as Column).text += `${json(result?.score)},`;
      const label = result?.label;
      if (label !== undefined && label !== null) this.#labelled[k] = true;
      (columns[8 + names.length + k] as Column).text += label === undefined || label === null ? 'null,' : `${JSON.stringify(label)},`;
    });
    starts.text += `${start},`;
    lengths.text += `${length},`;
    index.text += `${row.index},`;
    repeat.text += `${row.repeat},`;
    flags.text += `${(row.error === undefined ? 0 : ROW_ERRORED) | (failed ? ROW_FAILED : 0) | (row.cached ? ROW_CACHED : 0)},`;
    latency.text += `${json(row.latencyMs)},`;
    cost.text += `${json(row.costUsd)},`;
    verdicts.text += chars;
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
    const before = this.#rows;
    this.#evalNames = evalNames;
    this.#labelled = evalNames.map(() => false);
    for (const name of columnFiles(evalNames.length).slice(columns.length)) {
      columns.push({ name, fd: openSync(join(this.#dir, name), 'w'), text: 'null,'.repeat(before) });
    }
    // No verdict character was written yet (none per row): the earlier rows' go first.
    (columns[7] as Column).text = '-'.repeat(before * evalNames.length) + (columns[7] as Column).text;
  }

  /** Writes the rows added so far to the column files. */
  flush(): void {
    this.#held = 0;
    if (this.#broken || this.#columns === undefined) return;
    try {
      for (const column of this.#columns) {
        if (column.text === '') continue;
        const bytes = Buffer.from(column.text, 'utf8');
        column.text = '';
        let offset = 0;
        while (offset < bytes.length) offset += writeSync(column.fd, bytes, offset, bytes.length - offset);
      }
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

/** A number as JSON writes it (a missing or non-finite one is null), without JSON.stringify's cost. */
function json(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : 'null';
}

/** Removes a run folder's view index, if it has one. */
export function removeViewIndex(runDir: string): void {
  try {
    rmSync(join(runDir, VIEW_INDEX_DIR), { recursive: true, force: true });
  } catch {
    // an index left behind has no meta matching the new results: it is never read
  }
}
