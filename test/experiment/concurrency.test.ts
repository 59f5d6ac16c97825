import { afterEach, describe, expect, it } from 'vitest';
import { EvalBindingError } from '../../src/errors/index.js';
import { HTTP_THREAD_MIN_ROWS, httpThreadWarmer, wantsHttpThread } from '../../src/experiment/dispatch-rows.js';
import { sendingFromThread } from '../../src/model/index.js';
import type { RowResult } from '../../src/experiment/types.js';
import { echoResponder, useOpenAIServer, type OpenAIReply, type OpenAIResponder } from '../helpers/openai-server.js';
import { fixture, promptFile, wordsDataset, type Fixture } from './setup.js';

const server = useOpenAIServer();
let fx: Fixture;
afterEach(() => fx.cleanup());

const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
const slow = (ms: number) => (request: Parameters<typeof echoResponder>[0]): OpenAIReply => ({ ...echoResponder(request), latencyMs: ms }) as OpenAIReply;

/**
 * Holds every answer until `size` requests are waiting at the server, then answers them all.
 * A run reaches `size` in flight because it must, not because its requests happened to overlap
 * on a fast enough machine. One that never gets there (a pool too small) is answered after
 * `giveUpMs` anyway, so it finishes and fails on `maxInFlight` rather than timing out.
 */
function gathering(size: number, giveUpMs = 5_000): OpenAIResponder {
  let waiting: Array<() => void> = [];
  return async (request) => {
    await new Promise<void>((resolve) => {
      const release = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting = waiting.filter((each) => each !== release);
        resolve();
      }, giveUpMs);
      waiting.push(release);
      if (waiting.length >= size) {
        const batch = waiting;
        waiting = [];
        for (const each of batch) each();
      }
    });
    return echoResponder(request);
  };
}

describe('runExperiment against the loopback OpenAI server', () => {
  it.each([1, 4, 10])('keeps exactly %i requests in flight, never more', async (concurrency) => {
    fx = await fixture({
      'prompts/echo.prompt.mdx': promptFile({ model: 'openai/gpt-4o-mini' }),
      'datasets/words.jsonl': wordsDataset(words.slice(0, concurrency * 3)),
    });
    server.setHandler(gathering(concurrency));
    const outcome = await fx.run({ concurrency, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' } });
    expect(outcome.summary).toMatchObject({ rows: concurrency * 3, errored: 0, passed: true });
    expect(server.requests).toHaveLength(concurrency * 3);
    expect(server.maxInFlight).toBe(concurrency);
  });

  it('does not run more rows at once than the dataset has', async () => {
    fx = await fixture({ 'prompts/echo.prompt.mdx': promptFile({ model: 'openai/gpt-4o-mini' }) });
    server.setHandler(gathering(3));
    await fx.run({ concurrency: 10, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' } });
    expect(server.requests).toHaveLength(3);
    expect(server.maxInFlight).toBe(3);
  });

  it('checks eval binding before any request reaches the server', async () => {
    fx = await fixture({ 'prompts/echo.prompt.mdx': promptFile({ model: 'openai/gpt-4o-mini', evals: ['exact', 'contains_refund'] }) });
    await expect(fx.run({ env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' } })).rejects.toBeInstanceOf(EvalBindingError);
    expect(server.requests).toHaveLength(0);
  });

  it('aborting the signal stops dispatching and marks the run interrupted', async () => {
    fx = await fixture({
      'prompts/echo.prompt.mdx': promptFile({ model: 'openai/gpt-4o-mini' }),
      'datasets/words.jsonl': wordsDataset(words),
    });
    server.setHandler(slow(30));
    const controller = new AbortController();
    let ended = 0;
    const outcome = await fx.run({
      concurrency: 2,
      signal: controller.signal,
      graceMs: 1000,
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' },
      onEvent: (event) => {
        if (event.type === 'row-end' && ++ended === 4) controller.abort();
      },
    });
    expect(outcome.status).toBe('interrupted');
    // the two rows in flight at the abort finish within the grace period; nothing new starts
    expect(outcome.summary.rows).toBeGreaterThanOrEqual(4);
    expect(outcome.summary.rows).toBeLessThanOrEqual(6);
    expect(server.requests.length).toBe(outcome.summary.rows);
  });

  it('sends a long run from the HTTP worker thread, with the same results as from the main thread', async () => {
    const many = Array.from({ length: HTTP_THREAD_MIN_ROWS + 20 }, (_, i) => `word${i}`);
    fx = await fixture({
      'prompts/echo.prompt.mdx': promptFile({ model: 'openai/gpt-4o-mini' }),
      'datasets/words.jsonl': wordsDataset(many),
    });
    const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' };
    // The server notes, per request, where our requests were sent from.
    const fromThread: boolean[] = [];
    server.setHandler((request) => {
      fromThread.push(sendingFromThread());
      return echoResponder(request);
    });
    const stable = (rows: RowResult[]) => rows.map(({ latencyMs: _latency, endedAt: _ended, response: _response, ...row }) => row);
    const rowsOf = (outcome: { runDir: string }) => readRows(outcome.runDir);

    const threaded = await fx.run({ concurrency: 8, cacheMode: 'off', env });
    expect(fromThread).toHaveLength(many.length);
    expect(fromThread.every(Boolean)).toBe(true);
    // The run's end stops the thread.
    expect(sendingFromThread()).toBe(false);

    fromThread.length = 0;
    const inline = await fx.run({ concurrency: 8, cacheMode: 'off', httpThread: false, env });
    expect(fromThread).toHaveLength(many.length);
    expect(fromThread.some(Boolean)).toBe(false);

    expect(threaded.summary).toMatchObject({ rows: many.length, errored: 0, passed: true });
    expect(stable(await rowsOf(threaded))).toEqual(stable(await rowsOf(inline)));
  });
});

async function readRows(runDir: string): Promise<RowResult[]> {
  const { readFile } = await import('node:fs/promises');
  const text = await readFile(`${runDir}/results.jsonl`, 'utf8');
  const rows = text.trim().split('\n').map((line) => JSON.parse(line) as RowResult);
  return rows.sort((a, b) => a.index - b.index);
}

describe('wantsHttpThread: when a run sends from the HTTP thread by default', () => {
  const run = { expectedRows: HTTP_THREAD_MIN_ROWS, scoreOnly: false, cacheOnly: false, cores: 2 };
  it.each([
    ['a live run of HTTP_THREAD_MIN_ROWS rows on two cores', run, true],
    ['one row fewer', { ...run, expectedRows: HTTP_THREAD_MIN_ROWS - 1 }, false],
    ['an unknown number of rows (a shard)', { ...run, expectedRows: undefined }, false],
    ['a single core', { ...run, cores: 1 }, false],
    ['scoring pre-generated outputs', { ...run, scoreOnly: true }, false],
    ['--cache-only', { ...run, cacheOnly: true }, false],
  ])('%s', (_name, input, expected) => {
    expect(wantsHttpThread(input)).toBe(expected);
  });
});

describe('httpThreadWarmer: which runs start the HTTP thread during the dataset check', () => {
  const live = { cacheMode: 'off' as const };
  it.each([
    ['--no-cache, every row', live, true],
    ['the cache on (a rerun may make no call)', { cacheMode: 'use' as const }, false],
    ['--cache-only', { cacheMode: 'only' as const }, false],
    ['scoring pre-generated outputs', { ...live, scoreOnly: true }, false],
    ['--batch', { ...live, batch: {} }, false],
    ['a shard', { ...live, shard: { index: 1, count: 2 } }, false],
    ['--resume', { ...live, resume: 'latest' }, false],
    ['--limit', { ...live, selection: { kind: 'limit' as const, count: 10 } }, false],
    ['every row selected', { ...live, selection: { kind: 'all' as const } }, true],
    ['a name filter', { ...live, filter: { names: ['a'], tags: [], flags: '--name a' } }, false],
    ['watch mode\'s failed rows', { ...live, onlyIndexes: new Set([1]) }, false],
    ['the thread turned off', { ...live, httpThread: false }, false],
  ])('%s', (_name, options, expected) => {
    expect(httpThreadWarmer(options, 2) !== undefined).toBe(expected);
  });

  it('a single core never', () => {
    expect(httpThreadWarmer(live, 1)).toBeUndefined();
  });
});
