import { afterEach, describe, expect, it } from 'vitest';
import { fixture, wordsDataset, type Fixture } from '../experiment/setup.js';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

describe('runExperiment with a shard', () => {
  it('--resume continues the same shard only', async () => {
    fx = await fixture({ 'datasets/words.jsonl': wordsDataset(Array.from({ length: 12 }, (_, i) => `w${i}`)) });
    const first = await fx.run({ shard: { index: 1, count: 2 } });
    await expect(fx.run({ shard: { index: 2, count: 2 }, resume: first.runId })).rejects.toThrow(
      `cannot resume run ${first.runId}: it ran --shard 1/2, not --shard 2/2`,
    );
    await expect(fx.run({ resume: first.runId })).rejects.toThrow(`cannot resume run ${first.runId}: it ran --shard 1/2, not no --shard`);
    const again = await fx.run({ shard: { index: 1, count: 2 }, resume: first.runId });
    expect(again.summary.rows).toBe(first.summary.rows);
  });

  it('the run-start event has no total (a shard is known only as rows stream); the summary counts its rows', async () => {
    fx = await fixture({ 'datasets/words.jsonl': wordsDataset(Array.from({ length: 12 }, (_, i) => `w${i}`)) });
    const parts = [];
    for (const index of [1, 2]) parts.push(await fx.run({ shard: { index, count: 2 }, selection: { kind: 'rows', ranges: [[2, 9]] } }));
    const start = fx.events.find((event) => event.type === 'run-start');
    expect(start?.type === 'run-start' && start.info.total).toBeUndefined();
    // Applied after --rows: the two shards split exactly the 8 selected rows.
    expect(parts.map((p) => p.summary.rows).reduce((a, b) => a + b)).toBe(8);
  });
});
