import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, readDataset, readSelectedRows, selectRows, type RowSelection } from '../../src/dataset/index.js';
import { selectShard } from '../../src/shard/index.js';
import { makeTempDir } from '../project/temp-dir.js';

const ROWS = 200_000;
/** ~400 bytes a row: the file (~80 MB) is bigger than the allowed heap growth. */
const PADDING = 'lorem ipsum '.repeat(28);

let file = '';
let cleanup: () => Promise<void> = async () => {};

beforeAll(async () => {
  const temp = await makeTempDir();
  cleanup = temp.cleanup;
  file = await temp.write('big.jsonl', '');
  const out = createWriteStream(file);
  for (let i = 0; i < ROWS; i++) {
    const line = `${JSON.stringify({ input: { i, text: PADDING }, expected_output: `answer ${i}`, group: i % 7 })}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}, 60_000);

afterAll(() => cleanup());

describe('readDataset on a large file', () => {
  it('streams 200,000 rows with bounded heap growth', async () => {
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    let count = 0;
    let sum = 0;
    for await (const row of readDataset(file)) {
      count++;
      sum += row.input['i'] as number;
      if (count % 5_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    expect(count).toBe(ROWS);
    expect(sum).toBe((ROWS * (ROWS - 1)) / 2);
    expect(peak - before).toBeLessThan(50 * 1024 * 1024);
  }, 60_000);

  it('counts rows and samples from them in two streaming passes', async () => {
    expect(await countRows(file)).toBe(ROWS);
    const picked: number[] = [];
    for await (const row of readSelectedRows(file, { kind: 'sample', count: 5, seed: 3 })) picked.push(row.index);
    expect(picked).toHaveLength(5);
    expect([...picked].sort((a, b) => a - b)).toEqual(picked);
  }, 60_000);

  it('hashes the file in the same read (the run fingerprints its dataset without a read of its own)', async () => {
    const hash = createHash('sha256');
    let count = 0;
    for await (const _row of readDataset(file, { onChunk: (chunk) => hash.update(chunk) })) count++;
    expect(count).toBe(ROWS);
    expect(hash.digest('hex')).toBe(createHash('sha256').update(await readFile(file)).digest('hex'));
  }, 60_000);

  // What a run streams after its check (which counted the rows): one pass each, no row kept.
  it.each<[string, RowSelection, { index: number; count: number } | undefined]>([
    ['--split train:80 (seeded)', { kind: 'split', name: 'train', percent: 80, seed: 7 }, undefined],
    ['--split test:20 (positional)', { kind: 'split', name: 'test', percent: 20 }, undefined],
    ['--rows', { kind: 'rows', ranges: [[10, 20], [100_000, 199_999]] }, undefined],
    ['--sample half', { kind: 'sample', count: ROWS / 2, seed: 3 }, undefined],
    ['--shard 2/3', { kind: 'all' }, { index: 2, count: 3 }],
  ])('%s streams 200,000 rows with bounded heap growth', async (_name, selection, shard) => {
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    let count = 0;
    let previous = -1;
    let inOrder = true;
    const rows = selectRows(readDataset(file), selection, { total: ROWS });
    for await (const row of shard === undefined ? rows : selectShard(rows, shard)) {
      inOrder &&= row.index > previous;
      previous = row.index;
      if (++count % 5_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    expect(count).toBeGreaterThan(0);
    expect(inOrder).toBe(true);
    expect(peak - before).toBeLessThan(50 * 1024 * 1024);
  }, 60_000);
});
