import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { LanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { answer, text } from '../model/mock-model.js';
import { fixture, wordsDataset, type Fixture } from './setup.js';

// A real collection before each reading, so the figures are what is retained, not garbage.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A bare AI SDK model answering every request with the row's word: it keeps no record of its calls. */
const bareModel = {
  specificationVersion: 'v3',
  provider: 'bare',
  modelId: 'echo',
  supportedUrls: {},
  doGenerate: async (options) => {
    const last = options.prompt.at(-1);
    const said = last?.role === 'user' ? last.content.map((part) => (part.type === 'text' ? part.text : '')).join('') : '';
    return answer(text(said));
  },
  doStream: () => Promise.reject(new Error('not streamed')),
} satisfies LanguageModel;

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

/** Heap and array buffers in use after a full collection. */
function retained(): number {
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/**
 * Runs `rows` rows through the model call path (cache written, run store, view index, summary)
 * and returns what the run retains per row between its 1,000th row and its last: a row's numbers
 * for the summary (latency, score) and its place in the results file, never the row.
 */
async function retainedPerRow(rows: number): Promise<number> {
  const words = Array.from({ length: rows }, (_, i) => `w${i}`);
  fx = await fixture({ 'datasets/words.jsonl': wordsDataset(words) }, bareModel);
  const from = 1000;
  let done = 0;
  let early = 0;
  let late = 0;
  const outcome = await fx.run({
    concurrency: 20,
    cacheMode: 'off',
    onEvent: (event) => {
      if (event.type !== 'row-end') return;
      done += 1;
      if (done === from) early = retained();
      if (done === rows) late = retained();
    },
  });
  expect(outcome.summary).toMatchObject({ rows, errored: 0, evals: [{ name: 'exact', passedCount: rows }] });
  return (late - early) / (rows - from);
}

describe('a run retains a few numbers per row, never the rows', () => {
  it('40,000 rows through the model call path: under 150 bytes a row', async () => {
    // Per row: its latency (8 bytes) and score (8), its place in the results file (32), each in an
    // array that doubles as it fills. 65–102 bytes measured; the summary's three map entries per
    // row and eval, as it once kept, made it ~200.
    expect(await retainedPerRow(40_000)).toBeLessThan(150);
  }, 60_000);
});
