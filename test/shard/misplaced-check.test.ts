import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MisplacedCheck } from '../../src/shard/misplaced-check.js';
import { shardOf } from '../../src/shard/shard-of.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A results line of row `index` with this content. */
const rowLine = (index: number, word: string): string =>
  JSON.stringify({ index, line: index + 1, repeat: 0, input: { word }, expectedOutput: word, metadata: {}, output: word, toolCalls: [], evals: {}, cached: false, retries: 0 });

describe('MisplacedCheck', () => {
  // Needs `npm run build` (dist/bundle/misplaced-worker.js), as the CLI tests do. The bundle was
  // once written as misplaced-worker.cjs, so the check silently ran on the main thread.
  it('runs on its own thread from the built bundle, and names the first row (in dataset order) of each file that belongs to another shard', async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentmark-misplaced-'));
    const words = Array.from({ length: 30 }, (_, i) => `w${i}`);
    const inOne = words.map((word, index) => ({ word, index })).filter(({ word }) => shardOf({ input: { word }, expectedOutput: word, metadata: {} }, 2) === 1);
    const inTwo = words.map((word, index) => ({ word, index })).filter(({ word }) => shardOf({ input: { word }, expectedOutput: word, metadata: {} }, 2) === 2);
    // File 1 holds its own rows and, out of order, two of shard 2's: the earlier of them is the answer.
    const strays = [inTwo[3], inTwo[1]].map((row) => row!);
    const one = join(dir, 'one.jsonl');
    const two = join(dir, 'two.jsonl');
    await writeFile(one, `${[...inOne, ...strays].map(({ index, word }) => rowLine(index, word)).join('\n')}\n`);
    await writeFile(two, `${inTwo.map(({ index, word }) => rowLine(index, word)).join('\n')}\n`);
    const check = new MisplacedCheck([{ path: one, index: 1, count: 2 }, { path: two, index: 2, count: 2 }]);
    expect(check.threaded).toBe(true);
    expect(await check.result()).toEqual([{ index: inTwo[1]!.index, belongs: 2 }, undefined]);
    check.stop();
  });
});
