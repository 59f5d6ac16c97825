import { ROW_CACHED, type IndexEntry, type RowIndex } from '../api.js';

/**
 * Appends a live event's rows to the page's index columns, as the server builds them
 * (src/view/row-columns.ts): a label column stays empty until a row has a label.
 */
export function appendColumns(columns: RowIndex, entries: readonly IndexEntry[]): void {
  const names = columns.evalNames.length;
  let verdicts = '';
  for (const [index, repeat, flags, latency, cost, v, scores, labels] of entries) {
    const position = columns.index.length;
    columns.index.push(index);
    columns.repeat.push(repeat);
    columns.flags.push(flags);
    columns.latencyMs.push(latency);
    columns.costUsd.push(cost);
    verdicts += v.padEnd(names, '-').slice(0, names);
    for (let k = 0; k < names; k++) {
      (columns.scores[k] ??= []).push(scores[k] ?? null);
      const column = (columns.labels[k] ??= []);
      const label = labels[k] ?? null;
      if (label !== null) while (column.length < position) column.push(null);
      if (label !== null || column.length > 0) column.push(label);
    }
  }
  columns.verdicts += verdicts;
}

/** Row p's verdict on eval k. */
export const verdictAt = (columns: RowIndex, p: number, k: number): string => columns.verdicts[p * columns.evalNames.length + k] ?? '-';

export const isCachedAt = (columns: RowIndex, p: number): boolean => ((columns.flags[p] ?? 0) & ROW_CACHED) !== 0;
