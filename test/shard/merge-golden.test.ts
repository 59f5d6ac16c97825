import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeShards } from '../../src/shard/index.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'merge-golden');

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('merge output', () => {
  // The fixture: three shards of 240 rows as the bench generates them (each results file a little
  // out of order, integrity records, a verdict and a score eval), and what `agentmark merge` made of
  // them before the merge's speed-ups of issue 38 (expected/). A faster merge writes the same bytes.
  it('writes the results file, view index and summary of the recorded merge, byte for byte', async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentmark-merge-golden-'));
    await cp(join(FIXTURE, 'agentmark.json'), join(dir, 'agentmark.json'));
    await cp(join(FIXTURE, 'shards'), join(dir, 'shards'), { recursive: true });
    const shards = (await readdir(join(dir, 'shards'))).sort().map((name) => join(dir as string, 'shards', name));
    const merged = await mergeShards(shards, { projectRoot: dir, output: join(dir, 'merged') });
    const expected = join(FIXTURE, 'expected');
    expect(await readFile(join(merged.dir, 'results.jsonl'))).toEqual(await readFile(join(expected, 'results.jsonl')));
    const columns = (await readdir(join(expected, 'view-index'))).sort();
    expect((await readdir(join(merged.dir, 'view-index'))).sort()).toEqual(columns);
    for (const name of columns) {
      expect(await readFile(join(merged.dir, 'view-index', name), 'latin1'), name).toBe(await readFile(join(expected, 'view-index', name), 'latin1'));
    }
    const { summary, integrity, merged: shardsMerged } = merged.manifest;
    expect(JSON.parse(JSON.stringify({ summary, integrity, merged: shardsMerged }))).toEqual(JSON.parse(await readFile(join(expected, 'summary.json'), 'utf8')));
  });
});
