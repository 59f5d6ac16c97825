/**
 * A run's view index: `.agentmark/runs/<id>/view-index/`, written by the store as rows are
 * appended (view-index-writer.ts) and read by the viewer (view-index-reader.ts) so a large run
 * opens without parsing its results. One file per column of the rows table (RowIndex), each the
 * column's values as JSON separated and ended by commas (`verdicts`: the characters as they are),
 * plus `starts` and `lengths`, each row's line in results.jsonl. `meta.json`, written last,
 * says what of results.jsonl the columns describe.
 */
export const VIEW_INDEX_DIR = 'view-index';
export const VIEW_INDEX_META = 'meta.json';
export const VIEW_INDEX_VERSION = 1;

export interface ViewIndexMeta {
  version: typeof VIEW_INDEX_VERSION;
  rows: number;
  evalNames: string[];
  /** Positions in evalNames of the evals that labelled a row (the others' labels column is empty). */
  labelled: number[];
  /** The results file described: its first `bytes` bytes, `rows` lines whose sha256 this is. */
  results: { bytes: number; rows: number; sha256: string };
}

/** The column files, in this order: the row's place, then RowIndex's fields, then per eval its scores, then its labels. */
export function columnFiles(evals: number): string[] {
  const perEval = (prefix: string) => Array.from({ length: evals }, (_, k) => `${prefix}-${k}`);
  return ['starts', 'lengths', 'index', 'repeat', 'flags', 'latency', 'cost', 'verdicts', ...perEval('score'), ...perEval('label')];
}
