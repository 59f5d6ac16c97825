import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { CircuitBreaker, type Unreachable } from '../../src/experiment/circuit-breaker.js';
import { answer, text } from '../model/mock-model.js';
import { fixture, wordsDataset, type Fixture } from './setup.js';

/** What node:http rejects with when nothing listens on the port. */
function refused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
}
const failure = (error: Error, url?: string): { error: Error; url: string | undefined } => ({ error, url });

describe('CircuitBreaker', () => {
  it('opens after 5 unreachable attempts in a row spread over 2 s, naming the base URL and the error', () => {
    let clock = 0;
    const opened: Unreachable[] = [];
    const breaker = new CircuitBreaker((why) => opened.push(why), { now: () => clock });
    for (let i = 0; i < 8; i++) breaker.unreachable(failure(refused()));
    // Eight in the same instant: a blip of a restarting server, not a dead one.
    expect(opened).toEqual([]);
    expect(breaker.failing).toBe(true);
    clock = 1999;
    breaker.unreachable(failure(refused()));
    expect(opened).toEqual([]);
    clock = 2000;
    breaker.unreachable(failure(refused(), 'http://127.0.0.1:9/v1/chat/completions'));
    expect(opened).toEqual([{ baseUrl: 'http://127.0.0.1:9/v1', reason: 'connect ECONNREFUSED 127.0.0.1:9', attempts: 10, spanMs: 2000 }]);
    // Once only.
    clock = 5000;
    breaker.unreachable(failure(refused()));
    expect(opened).toHaveLength(1);
  });

  it('any answer of the server (429 and 5xx included) starts the count again', () => {
    let clock = 0;
    const opened: Unreachable[] = [];
    const breaker = new CircuitBreaker((why) => opened.push(why), { now: () => clock });
    for (let i = 0; i < 4; i++) breaker.unreachable(failure(refused()));
    clock = 3000;
    breaker.reached();
    expect(breaker.failing).toBe(false);
    breaker.unreachable(failure(refused()));
    clock = 6000;
    for (let i = 0; i < 3; i++) breaker.unreachable(failure(refused()));
    expect(opened).toEqual([]);
    breaker.unreachable(failure(refused()));
    expect(opened).toHaveLength(1);
  });
});

describe('runExperiment with a server that cannot be reached', () => {
  let fx: Fixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });
  const words = Array.from({ length: 40 }, (_, i) => `w${i}`);

  it('a short outage: the rows it failed are recorded as errored once the server answers again', async () => {
    let calls = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        calls += 1;
        if (calls <= 3) throw refused();
        return answer(text('ok'));
      },
    });
    fx = await fixture({ 'datasets/words.jsonl': wordsDataset(words) }, model);
    const outcome = await fx.run({ concurrency: 1, maxRetries: 0, cacheMode: 'off' });
    expect(outcome.status).toBe('completed');
    expect(outcome.summary.rows).toBe(40);
    expect(outcome.summary.errored).toBe(3);
    const errored = fx.events.flatMap((event) => (event.type === 'row-end' && event.row.error !== undefined ? [event.row] : []));
    expect(errored.map((row) => [row.index, row.errorCode])).toEqual([
      [0, 'MODEL_CONNECTION_FAILED'],
      [1, 'MODEL_CONNECTION_FAILED'],
      [2, 'MODEL_CONNECTION_FAILED'],
    ]);
  });

  it('a dead server: the run stops with MODEL_UNREACHABLE (exit 2), records no row it could not run, and is saved as interrupted', async () => {
    let calls = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        calls += 1;
        if (calls > 5) throw refused();
        return answer(text(`w${calls - 1}`));
      },
    });
    fx = await fixture({ 'datasets/words.jsonl': wordsDataset(Array.from({ length: 100_000 }, (_, i) => `w${i}`)) }, model);
    const error = await fx.run({ concurrency: 1, maxRetries: 0, cacheMode: 'off' }).then(
      () => undefined,
      (thrown: unknown) => thrown as { code?: string; exitCode?: number; message?: string; hint?: string },
    );
    // Stopped by the breaker's window of refusals, not after 100,000 failed rows: the rows not run
    // are counted in the message and none of them is recorded (below).
    expect(error?.code).toBe('MODEL_UNREACHABLE');
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toMatch(/^the model server is unreachable: connect ECONNREFUSED 127\.0\.0\.1:9 \(\d+ attempts in a row over [\d.]+s\); stopped with 99995 rows not run$/);
    const end = fx.events.find((event) => event.type === 'run-end');
    expect(end?.type === 'run-end' && end.status).toBe('interrupted');
    const runId = end?.type === 'run-end' ? end.info.runId : '';
    expect(error?.hint).toBe(`start the server or fix the base URL (OPENAI_BASE_URL, or baseURL in the config), then continue with --resume ${runId}`);
    const runDir = join(fx.dir, '.agentmark', 'runs', runId);
    const rows = (await readFile(join(runDir, 'results.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(rows.map((line) => (JSON.parse(line) as { index: number; error?: string }).error)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    const manifest = JSON.parse(await readFile(join(runDir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ status: 'interrupted', summary: { rows: 5, errored: 0 }, stopped: { reason: 'server-unreachable', message: error?.message } });
  }, 30_000);
});
