import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readDataset, type DatasetRow } from '../../src/dataset/index.js';
import { selectShard, shardOf, shardOfKey } from '../../src/shard/index.js';
import { tempProject } from '../helpers/temp-project.js';

async function* from(rows: DatasetRow[]): AsyncGenerator<DatasetRow> {
  yield* rows;
}
async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}
function row(index: number, word: string, extra: Partial<DatasetRow> = {}): DatasetRow {
  return { index, line: index + 1, input: { word }, expectedOutput: word, hasExpectedOutput: true, metadata: {}, hasOutput: false, ...extra };
}

describe('shardOf', () => {
  it('is the first 30 bits of the sha256 of the canonical row, modulo n, plus one', () => {
    // Computed here independently of src/: sha256 over the sorted-key JSON, then the top 30
    // bits of the digest (979185044 for this row): 979185044 % 4 = 0 and % 3 = 2.
    const digest = createHash('sha256').update('{"expectedOutput":"alpha","input":{"word":"alpha"},"metadata":{}}').digest();
    const bits = ((digest[0]! << 22) | (digest[1]! << 14) | (digest[2]! << 6) | (digest[3]! >> 2)) >>> 0;
    expect(bits).toBe(979185044);
    expect(shardOf(row(0, 'alpha'), 4)).toBe(1);
    expect(shardOf(row(0, 'alpha'), 3)).toBe(3);
    expect(shardOfKey('AAAAB', 4)).toBe(2);
    expect(shardOfKey('_____', 1000)).toBe((2 ** 30 - 1) % 1000 + 1);
  });

  it('depends on the content only: not the index or line, key order, or an absent vs null expected output', () => {
    const a = row(0, 'x', { metadata: { a: 1, b: 2 } });
    const b = row(99, 'x', { line: 500, metadata: { b: 2, a: 1 } });
    expect(shardOf(a, 7)).toBe(shardOf(b, 7));
    const absent = row(0, 'y', { expectedOutput: undefined, hasExpectedOutput: false });
    const stored = { input: { word: 'y' }, metadata: {} };
    expect(shardOf(absent, 7)).toBe(shardOf({ ...stored, expectedOutput: null }, 7));
    expect(shardOf(absent, 7)).toBe(shardOf(stored, 7));
  });

  it('the shards of n partition the rows, each about 1/n of them, and adding rows moves none', async () => {
    const rows = Array.from({ length: 4000 }, (_, i) => row(i, `word-${i}`));
    const shards = await Promise.all([1, 2, 3, 4].map((index) => collect(selectShard(from(rows), { index, count: 4 }))));
    expect(shards.flat().map((r) => r.index).sort((a, b) => a - b)).toEqual(rows.map((r) => r.index));
    // Binomial(4000, 1/4): mean 1000, sd 27; ±150 is more than 5 sd.
    for (const shard of shards) expect(Math.abs(shard.length - 1000)).toBeLessThan(150);
    const grown = [row(0, 'new first'), ...rows.map((r) => ({ ...r, index: r.index + 1 })), row(4001, 'new last')];
    for (const [i, shard] of shards.entries()) {
      const again = await collect(selectShard(from(grown), { index: i + 1, count: 4 }));
      const words = new Set(again.map((r) => r.input.word));
      for (const kept of shard) expect(words.has(kept.input.word)).toBe(true);
      expect(again.length - shard.length).toBeLessThanOrEqual(2);
    }
  });

  it('reads the same shard from the same file on every pass (no randomness)', async () => {
    const { dir, cleanup } = await tempProject({ 'd.jsonl': Array.from({ length: 50 }, (_, i) => JSON.stringify({ input: { i } })).join('\n') });
    try {
      const once = await collect(selectShard(readDataset(`${dir}/d.jsonl`), { index: 2, count: 3 }));
      const twice = await collect(selectShard(readDataset(`${dir}/d.jsonl`), { index: 2, count: 3 }));
      expect(once.map((r) => r.index)).toEqual(twice.map((r) => r.index));
      expect(once.length).toBeGreaterThan(0);
    } finally {
      await cleanup();
    }
  });
});
