import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, wordsDataset, type Fixture } from './setup.js';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

/** Newline-terminated lines in the files of `dir` (a line torn by a kill would not count). */
function completeLines(dir: string, only?: string): number {
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => only === undefined || name === only);
  } catch {
    return 0;
  }
  return files.reduce((sum, name) => sum + readFileSync(join(dir, name), 'utf8').split('\n').length - 1, 0);
}

describe('the response cache and results.jsonl', () => {
  it("a row is in results.jsonl only once its answer's cache line is in the cache file, and reported only once in results.jsonl", async () => {
    // 64 words spread over the 16 segment files: every row's segment is new at some point, and
    // opening a segment file happens off the main thread, after the answer is back.
    const words = Array.from({ length: 64 }, (_, i) => `word${i}`);
    fx = await fixture({ 'datasets/words.jsonl': wordsDataset(words) });
    const { dir } = fx;
    const checks: Array<{ rows: number; cached: number }> = [];
    const outcome = await fx.run({
      concurrency: 8,
      cacheMode: 'off',
      // Checked synchronously at the moment the runner reports the row: it was just appended.
      onEvent: (event) => {
        if (event.type !== 'row-end') return;
        const runs = join(dir, '.agentmark', 'runs');
        const [runId] = readdirSync(runs);
        checks.push({
          rows: completeLines(join(runs, runId ?? ''), 'results.jsonl'),
          cached: completeLines(join(dir, '.agentmark', 'cache')),
        });
      },
    });
    expect(outcome.summary.rows).toBe(64);
    expect(checks).toHaveLength(64);
    // A kill -9 at any of these moments keeps every stored row replayable with --cache-only.
    for (const [i, check] of checks.entries()) expect(check.cached, `after row ${i + 1}`).toBeGreaterThanOrEqual(check.rows);
    // A row is reported only once it is in results.jsonl: a kill never loses a row already shown.
    for (const [i, check] of checks.entries()) expect(check.rows, `row-end ${i + 1}`).toBeGreaterThanOrEqual(i + 1);
  });
});
