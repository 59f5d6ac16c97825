/**
 * A run's rows as the viewer's rows table needs them (numbers only, one column per field), shared
 * by the store, which writes them to a run's view index as it appends rows, and the viewer.
 */
/** Verdict of one eval on one row, one character each: pass, fail, error, skipped, none (score or label only). */
export type VerdictChar = 'P' | 'F' | 'E' | 'S' | '-';

/** Row flags, OR-ed in `IndexEntry[2]`. */
export const ROW_ERRORED = 1;
/** An eval did not pass or errored, or the row errored. */
export const ROW_FAILED = 2;
export const ROW_CACHED = 4;

/**
 * One stored row as numbers (a live event's new rows; the index sends the same as columns):
 * [dataset index, repeat, flags, latency ms | null, cost USD | null,
 *  verdicts (one VerdictChar per eval, in evalNames order), scores per eval, labels per eval
 *  (an empty list when the row has no label at all)].
 */
export type IndexEntry = [
  index: number,
  repeat: number,
  flags: number,
  latencyMs: number | null,
  costUsd: number | null,
  verdicts: string,
  scores: Array<number | null>,
  labels: Array<string | null>,
];

/**
 * Every stored row of a run in file (finish) order, as columns: a row's position is its place in
 * each. Columns rather than one IndexEntry per row: a 100,000-row index parses about 5× faster
 * in the browser and leaves 300,000 fewer small arrays for its garbage collector.
 */
export interface RowIndex {
  evalNames: string[];
  index: number[];
  repeat: number[];
  /** ROW_* flags OR-ed. */
  flags: number[];
  latencyMs: Array<number | null>;
  costUsd: Array<number | null>;
  /** evalNames.length VerdictChars per row: row p's are `verdicts.slice(p * n, p * n + n)`. */
  verdicts: string;
  /** scores[k][p]: eval k's score on row p. */
  scores: Array<Array<number | null>>;
  /** labels[k][p]: eval k's label on row p; an empty list while eval k has labelled no row. */
  labels: Array<Array<string | null>>;
}
