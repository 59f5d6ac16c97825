import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { LanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { reporters } from '../../src/report/index.js';
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

/** Characters each report must have written for `rows` rows: what shows every row went through it. */
const LEAST_WRITTEN: Record<'json' | 'csv' | 'junit' | 'table' | 'jsonl', (rows: number) => number> = {
  json: (rows) => rows * PAD.length,
  csv: (rows) => rows * PAD.length,
  jsonl: (rows) => rows * PAD.length,
  junit: (rows) => rows * 50,
  table: () => 1000 * 200,
};

/** Retained heap growth per row between the first and last tenth of the run. */
async function growthPerRow(rows: number, pregenerated: boolean, format?: keyof typeof LEAST_WRITTEN): Promise<number> {
  fx = await fixture({ 'datasets/words.jsonl': dataset(rows, pregenerated) }, bareModel);
  // The report is written to nowhere, but it is written: every row goes through the reporter
  // (the table with --all-rows: a large run's table otherwise shows only the failed rows).
  let written = 0;
  const report = format === undefined ? undefined : reporters[format]({ write: (chunk: string) => (written += chunk.length) }, { allRows: true });
  let done = 0;
  let early = 0;
  let late = 0;
  const tenth = rows / 10;
  const outcome = await fx.run({
    concurrency: 10,
    onEvent: async (event) => {
      if (event.type === 'run-start') await report?.onRunStart?.(event.info);
      if (event.type === 'run-end') await report?.onRunEnd?.(event.summary, event.info, event.rows);
      if (event.type !== 'row-end') return;
      await report?.onRowEnd?.(event.row);
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
  // Every row reached the report: its 4 KB input where the format shows inputs whole, one test
  // case line each in junit; the table shows only its first 1,000 rows, cut to 200 characters.
  // Without a report nothing is written; with one, each row's share.
  expect(written).toBeGreaterThan(format === undefined ? -1 : LEAST_WRITTEN[format](rows));
  expect(written === 0).toBe(format === undefined);
  return (late - early) / (rows - 2 * tenth);
}

describe('rows stream through the pool with flat memory', () => {
  it('20,000 rows of 4 KB at concurrency 10: far less retained per row than a row holds', async () => {
    // held rows would retain over 4 KB each; the run keeps only a slim per-row record for its summary
    expect(await growthPerRow(20_000, true)).toBeLessThan(1500);
  }, 30_000);

  it.each(['json', 'csv', 'junit', 'table', 'jsonl'] as const)('%s report: rows are read back at the end, not held', async (format) => {
    expect(await growthPerRow(5_000, true, format)).toBeLessThan(300);
  }, 30_000);

  it('the same through the model call path (cache and run store included)', async () => {
    expect(await growthPerRow(1_500, false)).toBeLessThan(1500);
  }, 30_000);
});
