import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors/index.js';
import { percentOfRows, readDataset, readSelectedRows, selectRows, splitBucket, type DatasetRow, type RowSelection } from '../../src/dataset/index.js';
import { makeTempDir } from '../project/temp-dir.js';

const ROWS = 1_000;
let file = '';
let cleanup: () => Promise<void> = async () => {};

beforeAll(async () => {
  const temp = await makeTempDir();
  cleanup = temp.cleanup;
  const lines = Array.from({ length: ROWS }, (_, i) => JSON.stringify({ input: { i } }));
  lines.splice(10, 0, ''); // a blank line must not shift indexes
  file = await temp.write('rows.jsonl', `${lines.join('\n')}\n`);
});
afterAll(() => cleanup());

async function indexes(selection: RowSelection, total?: number): Promise<number[]> {
  const picked: number[] = [];
  const rows = selectRows(readDataset(file), selection, total === undefined ? {} : { total });
  for await (const row of rows) picked.push(row.index);
  return picked;
}

async function selected(selection: RowSelection): Promise<DatasetRow[]> {
  const rows: DatasetRow[] = [];
  for await (const row of readSelectedRows(file, selection)) rows.push(row);
  return rows;
}

describe('selectRows', () => {
  it('all: every row', async () => {
    expect(await indexes({ kind: 'all' })).toEqual(Array.from({ length: ROWS }, (_, i) => i));
  });

  it('rows: the listed indexes and ranges, in file order', async () => {
    const rows = await selected({ kind: 'rows', ranges: [[9, 9], [0, 0], [3, 5], [10, 11]] });
    expect(rows.map((row) => row.index)).toEqual([0, 3, 4, 5, 9, 10, 11]);
    expect(rows.map((row) => row.input['i'])).toEqual([0, 3, 4, 5, 9, 10, 11]);
    expect(rows.map((row) => row.line)).toEqual([1, 4, 5, 6, 10, 12, 13]);
  });

  it('rows: an index past the end is a usage error, with or without the total', async () => {
    const selection: RowSelection = { kind: 'rows', ranges: [[998, 1000]] };
    const message = '--rows asks for row 1000 but the dataset has only 1000 rows (indexes 0-999)';
    // With the total counted first, the error comes before any row is handed out.
    const yielded: number[] = [];
    const error = await (async () => {
      for await (const row of readSelectedRows(file, selection)) yielded.push(row.index);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ code: 'USAGE_ROWS_OUT_OF_RANGE', message });
    expect(yielded).toEqual([]);
    // Streaming without the total, it is found at the end of the file.
    await expect(indexes(selection)).rejects.toThrow(message);
  });

  it('sample: exactly N rows, reproducible by seed, in file order', async () => {
    const first = await indexes({ kind: 'sample', count: 25, seed: 42 }, ROWS);
    expect(first).toHaveLength(25);
    expect(new Set(first).size).toBe(25);
    expect([...first].sort((a, b) => a - b)).toEqual(first);
    expect(await indexes({ kind: 'sample', count: 25, seed: 42 }, ROWS)).toEqual(first);
    // Without the total the rows are buffered, but the choice is the same.
    expect(await indexes({ kind: 'sample', count: 25, seed: 42 })).toEqual(first);
    expect((await selected({ kind: 'sample', count: 25, seed: 42 })).map((row) => row.index)).toEqual(first);
    const viaPath: number[] = [];
    for await (const row of selectRows(readDataset(file), { kind: 'sample', count: 25, seed: 42 }, { path: file })) viaPath.push(row.index);
    expect(viaPath).toEqual(first);
    expect(await indexes({ kind: 'sample', count: 25, seed: 43 }, ROWS)).not.toEqual(first);
  });

  it('sample: more than the dataset holds gives every row', async () => {
    expect(await indexes({ kind: 'sample', count: ROWS + 5, seed: 1 }, ROWS)).toHaveLength(ROWS);
  });

  it('percent (--sample P): round(P% of the rows) chosen by the seed, in file order', async () => {
    // 1,000 rows: 20% is 200 rows; 0.04% of them would round to 0, so at least one is kept.
    const first = await indexes({ kind: 'percent', percent: 20, seed: 42 });
    expect(first).toHaveLength(200);
    expect(first).toEqual([...first].sort((a, b) => a - b));
    expect(await indexes({ kind: 'percent', percent: 20, seed: 42 }, ROWS)).toEqual(first);
    expect((await selected({ kind: 'percent', percent: 20, seed: 42 })).map((row) => row.index)).toEqual(first);
    expect(await indexes({ kind: 'percent', percent: 20, seed: 43 })).not.toEqual(first);
    expect(await indexes({ kind: 'percent', percent: 100, seed: 1 })).toHaveLength(ROWS);
    expect(percentOfRows(3, 1)).toBe(1);
    expect(percentOfRows(3, 50)).toBe(2);
    expect(percentOfRows(0, 50)).toBe(0);
  });

  it('limit: the first n rows, all of them when there are fewer', async () => {
    expect(await indexes({ kind: 'limit', count: 3 })).toEqual([0, 1, 2]);
    expect(await indexes({ kind: 'limit', count: ROWS + 5 })).toHaveLength(ROWS);
  });

  it('split with a seed: train:80 and test:80 partition the rows, near 80/20', async () => {
    const train = await indexes({ kind: 'split', name: 'train', percent: 80, seed: 0 });
    const test = await indexes({ kind: 'split', name: 'test', percent: 80, seed: 0 });
    expect(train.length + test.length).toBe(ROWS);
    expect([...train, ...test].sort((a, b) => a - b)).toEqual(Array.from({ length: ROWS }, (_, i) => i));
    expect(train.length).toBeGreaterThan(750);
    expect(train.length).toBeLessThan(850);
    expect(await indexes({ kind: 'split', name: 'train', percent: 80, seed: 0 })).toEqual(train);
    expect(await indexes({ kind: 'split', name: 'train', percent: 80, seed: 5 })).not.toEqual(train);
  });

  it('split without a seed: the first P% of rows are train, the rest test (AgentMark\'s positional split)', async () => {
    const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);
    expect(await indexes({ kind: 'split', name: 'train', percent: 80 })).toEqual(range(0, 800));
    expect(await indexes({ kind: 'split', name: 'test', percent: 80 })).toEqual(range(800, ROWS));
    expect((await selected({ kind: 'split', name: 'test', percent: 80 })).map((row) => row.index)).toEqual(range(800, ROWS));
    expect(await indexes({ kind: 'split', name: 'train', percent: 80 }, ROWS)).toEqual(range(0, 800));
  });

  it('split: a row keeps its bucket whatever the file holds', () => {
    expect(Array.from({ length: 8 }, (_, i) => splitBucket(i, 0))).toEqual(Array.from({ length: 8 }, (_, i) => splitBucket(i, 0)));
    for (let i = 0; i < 1000; i++) {
      const bucket = splitBucket(i, 3);
      expect(bucket).toBeGreaterThanOrEqual(0);
      expect(bucket).toBeLessThan(100);
    }
  });
});

describe('selectRows on an empty dataset', () => {
  it('reports the empty file, not an out-of-range index', async () => {
    const temp = await makeTempDir({ 'empty.jsonl': '\n' });
    const empty = `${temp.dir}/empty.jsonl`;
    const error = await (async () => {
      for await (const _row of readSelectedRows(empty, { kind: 'rows', ranges: [[0, 0]] })) void _row;
    })().catch((e: unknown) => e);
    await temp.cleanup();
    expect(error).toMatchObject({ code: 'DATASET_EMPTY' });
  });
});
