import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { LanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { answer, text } from '../model/mock-model.js';
import { fixture, type Fixture } from './setup.js';

// A real collection before each reading, so the figures are what is retained, not garbage.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const PAD = 'x'.repeat(4096);
const dataset = (rows: number, pregenerated: boolean): string => {
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    lines.push(JSON.stringify({ input: { word: `w${i}`, pad: PAD }, expected_output: `w${i}`, ...(pregenerated ? { output: `w${i}` } : {}) }));
  }
  return `${lines.join('\n')}\n`;
};

/** A bare AI SDK model: unlike the mock, it keeps no record of its calls. */
const bareModel = {
  specificationVersion: 'v3',
  provider: 'bare',
  modelId: 'echo',
  supportedUrls: {},
  doGenerate: async () => answer(text('w')),
  doStream: () => Promise.reject(new Error('not streamed')),
} satisfies LanguageModel;

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

/** Retained heap growth per row between the first and last tenth of the run. */
async function growthPerRow(rows: number, pregenerated: boolean): Promise<number> {
  fx = await fixture({ 'datasets/words.jsonl': dataset(rows, pregenerated) }, bareModel);
  let done = 0;
  let early = 0;
  let late = 0;
  const tenth = rows / 10;
  const outcome = await fx.run({
    concurrency: 10,
    onEvent: (event) => {
      if (event.type !== 'row-end') return;
      done += 1;
      if (done === tenth) {
        gc();
        early = process.memoryUsage().heapUsed;
      }
      if (done === rows - tenth) {
        gc();
        late = process.memoryUsage().heapUsed;
      }
    },
  });
  expect(outcome.summary).toMatchObject({ rows, errored: 0 });
  return (late - early) / (rows - 2 * tenth);
}

describe('rows stream through the pool with flat memory', () => {
  it('20,000 rows of 4 KB at concurrency 10: far less retained per row than a row holds', async () => {
    // held rows would retain over 4 KB each; the run keeps only a slim per-row record for its summary
    expect(await growthPerRow(20_000, true)).toBeLessThan(1500);
  }, 30_000);

  it('the same through the model call path (cache and run store included)', async () => {
    expect(await growthPerRow(1_500, false)).toBeLessThan(1500);
  }, 30_000);
});
