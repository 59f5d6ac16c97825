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

/** Rows in `percent`% of `total` rows: rounded to the nearest, at least one of a non-empty file. */
export function percentOfRows(total: number, percent: number): number {
  return total === 0 ? 0 : Math.max(1, Math.round((total * percent) / 100));
}

/** Whether a selection needs the number of rows before it can stream. */
function needsTotal(selection: RowSelection): boolean {
  return selection.kind === 'sample' || selection.kind === 'percent' || selection.kind === 'rows' || (selection.kind === 'split' && selection.seed === undefined);
}

/**
 * Streams the rows a selection keeps, in file order.
 *
 * - `rows`: rows whose index is in one of the inclusive ranges. An index past the last row is
 *   a usage error, so a typo never runs silently fewer rows.
 * - `sample`: exactly `count` rows (all rows when the dataset has fewer), chosen from the seed
 *   alone, so the same seed and file give the same rows. `percent` is the same with
 *   `percentOfRows(total, percent)` rows.
 * - `limit`: the first `count` rows (all when there are fewer).
 * - `split`: `percent` is the train portion whichever name is given (AgentMark's meaning).
 *   Seeded, each row's bucket is `splitBucket(index, seed)`, a hash into 0..99: train takes the
 *   buckets `< percent`, test the others. Without a seed the first `percentOfRows(total,
 *   percent)` rows are train and the rest test. Either way `train:P` and `test:P` with the
 *   same seed (or none) partition the rows: each row is in exactly one of them.
 */
export async function* selectRows(
  rows: AsyncIterable<DatasetRow>,
  selection: RowSelection,
  options: SelectRowsOptions = {},
): AsyncGenerator<DatasetRow, void, undefined> {
  let total = options.total;
  if (total === undefined && options.path !== undefined && needsTotal(selection)) {
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
      yield* bySample(rows, () => selection.count, selection.seed, total);
      return;
    case 'percent':
      yield* bySample(rows, (size) => percentOfRows(size, selection.percent), selection.seed, total);
      return;
    case 'limit':
      for await (const row of rows) {
        if (row.index >= selection.count) return;
        yield row;
      }
      return;
    case 'split':
      yield* bySplit(rows, selection, total);
  }
}

async function* bySplit(rows: AsyncIterable<DatasetRow>, selection: Extract<RowSelection, { kind: 'split' }>, total: number | undefined) {
  const { name, percent, seed } = selection;
  if (seed === undefined) {
    // Positional: the train rows are the first ones, so the count must be known before streaming.
    const buffered: DatasetRow[] = [];
    if (total === undefined) for await (const row of rows) buffered.push(row);
    const size = total ?? buffered.reduce((max, row) => Math.max(max, row.index + 1), 0);
    const train = percentOfRows(size, percent);
    const keep = (index: number): boolean => (name === 'train' ? index < train : index >= train);
    for await (const row of total === undefined ? buffered : rows) {
      if (keep(row.index)) yield row;
      else if (name === 'train' && total !== undefined) return;
    }
    return;
  }
  for await (const row of rows) {
    const inTrain = splitBucket(row.index, seed) < percent;
    if (inTrain === (name === 'train')) yield row;
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

async function* bySample(rows: AsyncIterable<DatasetRow>, countOf: (total: number) => number, seed: number, total: number | undefined) {
  if (total === undefined) {
    const buffered: DatasetRow[] = [];
    for await (const row of rows) buffered.push(row);
    const size = buffered.reduce((max, row) => Math.max(max, row.index + 1), 0);
    const chosen = sampleIndexes(size, countOf(size), seed);
    yield* buffered.filter((row) => chosen.has(row.index));
    return;
  }
  const chosen = sampleIndexes(total, countOf(total), seed);
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
