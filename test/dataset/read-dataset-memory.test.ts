import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, readDataset, readSelectedRows } from '../../src/dataset/index.js';
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
});
