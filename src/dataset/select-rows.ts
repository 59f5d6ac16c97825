import { UsageError } from '../errors/index.js';
import { countRows } from './count-rows.js';
import { sampleIndexes, splitBucket } from './random.js';
import type { DatasetRow, RowSelection } from './types.js';

export interface SelectRowsOptions {
  /**
   * Number of row indexes in the dataset (`countRows`). `sample` needs it to pick indexes up
   * front and stream; `rows` uses it to report out-of-range indexes before any row runs.
   */
  total?: number;
  /**
   * The dataset file: when `total` is not given, `sample` and `rows` count its rows first
   * (a cheap pass that parses no JSON). With neither, `sample` buffers the rows in memory,
   * with the same result.
   */
  path?: string;
  signal?: AbortSignal;
}

/**
 * Streams the rows a selection keeps, in file order.
 *
 * - `rows`: rows whose index is in one of the inclusive ranges. An index past the last row is
 *   a usage error, so a typo never runs silently fewer rows.
 * - `sample`: exactly `count` rows (all rows when the dataset has fewer), chosen from the seed
 *   alone, so the same seed and file give the same rows.
 * - `split`: each row's bucket is `splitBucket(index, seed)`, a hash into 0..99. The name
 *   `test` takes the last `percent` buckets (`>= 100 - percent`); every other name takes the
 *   first `percent` buckets (`< percent`). So `train:80` and `test:20` with the same seed
 *   partition the rows: each row is in exactly one of them.
 */
export async function* selectRows(
  rows: AsyncIterable<DatasetRow>,
  selection: RowSelection,
  options: SelectRowsOptions = {},
): AsyncGenerator<DatasetRow, void, undefined> {
  let total = options.total;
  if (total === undefined && options.path !== undefined && (selection.kind === 'sample' || selection.kind === 'rows')) {
    total = await countRows(options.path, options.signal);
  }
  switch (selection.kind) {
    case 'all':
      yield* rows;
      return;
    case 'rows':
      yield* byRanges(rows, selection.ranges, total);
      return;
    case 'sample':
      yield* bySample(rows, selection.count, selection.seed, total);
      return;
    case 'split': {
      const { name, percent, seed } = selection;
      const keep = name === 'test' ? (bucket: number) => bucket >= 100 - percent : (bucket: number) => bucket < percent;
      for await (const row of rows) {
        if (keep(splitBucket(row.index, seed))) yield row;
      }
    }
  }
}

async function* byRanges(rows: AsyncIterable<DatasetRow>, ranges: Array<[number, number]>, total: number | undefined) {
  if (total !== undefined) checkRowsInRange({ kind: 'rows', ranges }, total);
  const last = Math.max(...ranges.map(([, end]) => end));
  let seen = 0;
  for await (const row of rows) {
    seen = row.index + 1;
    if (ranges.some(([start, end]) => row.index >= start && row.index <= end)) yield row;
    // Stop reading once past the last wanted index: --rows 0-4 on a huge file is instant.
    if (row.index >= last) return;
  }
  if (last >= seen) throw outOfRange(last, seen);
}

async function* bySample(rows: AsyncIterable<DatasetRow>, count: number, seed: number, total: number | undefined) {
  if (total === undefined) {
    const buffered: DatasetRow[] = [];
    for await (const row of rows) buffered.push(row);
    const size = buffered.reduce((max, row) => Math.max(max, row.index + 1), 0);
    const chosen = sampleIndexes(size, count, seed);
    yield* buffered.filter((row) => chosen.has(row.index));
    return;
  }
  const chosen = sampleIndexes(total, count, seed);
  let remaining = chosen.size;
  for await (const row of rows) {
    if (!chosen.has(row.index)) continue;
    yield row;
    if (--remaining === 0) return;
  }
}

/**
 * `--rows` past the end of a dataset of `total` rows is a usage error. Exported so the runner
 * can raise it before a run folder exists. An empty file is left to readDataset, whose
 * DATASET_EMPTY says more than "out of range".
 */
export function checkRowsInRange(selection: RowSelection | undefined, total: number): void {
  if (selection?.kind !== 'rows' || total === 0) return;
  const last = Math.max(...selection.ranges.map(([, end]) => end));
  if (last >= total) throw outOfRange(last, total);
}

function outOfRange(index: number, total: number): UsageError {
  const available = total === 0 ? 'no rows' : `only ${total} row${total === 1 ? '' : 's'} (indexes 0-${total - 1})`;
  return new UsageError('USAGE_ROWS_OUT_OF_RANGE', `--rows asks for row ${index} but the dataset has ${available}`, {
    hint: 'row indexes are zero-based and count non-blank lines',
  });
}
