import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatBatchProgress } from '../../src/batch/index.js';
import { UsageError } from '../../src/errors/index.js';
import type { RowResult } from '../../src/experiment/index.js';
import { RunStore } from '../../src/store/index.js';
import { batchCreates as countBatchCreates, batchEnv, rowsOf } from './batch-kit.js';
import { echoResponder, useOpenAIServer, type OpenAIResponder } from '../helpers/openai-server.js';
import { agentmarkJson, fixture, promptFile, scores, wordsDataset, type Fixture } from '../experiment/setup.js';

const server = useOpenAIServer();
let fx: Fixture;
afterEach(() => fx.cleanup());

const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const env = (): NodeJS.ProcessEnv => batchEnv(server);
const batchCreates = (): number => countBatchCreates(server);
const liveCalls = (): RecordedBody[] =>
  server.requests.filter((r) => r.path === '/v1/chat/completions' || r.path === '/v1/responses').map((r) => r.body);
type RecordedBody = Record<string, unknown>;

/** The judge is the only caller asking for structured output: it answers "polite" except for gamma. */
const judgeAnswers: OpenAIResponder = (request) =>
  request.schema === undefined
    ? echoResponder(request)
    : { object: { reasoning: `judged ${request.lastUserText.length} chars`, passed: !request.messagesText.includes('gamma') } };

function uploadedLines(): Array<{ custom_id: string; url: string; body: RecordedBody }> {
  return [...server.batches.files.values()]
    .filter((file) => file.purpose === 'batch')
    .flatMap((file) => file.content.trim().split('\n'))
    .map((line) => JSON.parse(line) as { custom_id: string; url: string; body: RecordedBody });
}

const polite = { type: 'boolean', scorer: 'llm_judge', description: 'Is the reply polite?' };

async function project(evals: string[] = ['exact', 'polite']): Promise<Fixture> {
  return fixture({
    'agentmark.json': agentmarkJson({ scores: { ...scores, polite } }),
    'prompts/echo.prompt.mdx': promptFile({ model: 'openai/gpt-4o-mini', evals }),
    'datasets/words.jsonl': wordsDataset(words),
  });
}

/** What a row's result says, without what differs between a batch and a live call (latency, cost, batch flag). */
function scored(rows: RowResult[]): unknown[] {
  return rows.map((row) => [row.index, row.output, row.error ?? null, row.evals]);
}

interface CacheEntry {
  key: string;
  response: { output: unknown; batch?: boolean; costUsd?: number; usage: { inputTokens: number; outputTokens: number } };
}

/** Every answer in the project's response cache. */
async function readCache(dir: string): Promise<CacheEntry[]> {
  const folder = join(dir, '.agentmark', 'cache');
  const files = (await readdir(folder)).filter((name) => name.endsWith('.jsonl'));
  const texts = await Promise.all(files.map((name) => readFile(join(folder, name), 'utf8')));
  return texts.flatMap((text) => text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as CacheEntry));
}

/** Every number to 12 significant digits. */
function rounded(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(12)) : v)));
}

describe('run-experiment --batch with LLM-judge evals', () => {
  it('sends the judge calls as a second round of jobs, with no live call, and scores as the live run does', async () => {
    fx = await project();
    server.setHandler(judgeAnswers);
    const batch = await fx.run({ env: env(), batch: { pollMs: 5 } });
    expect(batchCreates()).toBe(2);
    expect(liveCalls()).toHaveLength(0);
    expect(batch.summary).toMatchObject({ rows: 5, errored: 0, cached: 0 });
    const manifest = await new RunStore(fx.dir).manifest(batch.runId);
    expect(manifest.batch?.jobs.map((job) => [job.part, job.kind ?? 'model', job.requests, job.batchId, job.status])).toEqual([
      [0, 'model', 5, 'batch_1', 'completed'],
      [1, 'judge', 5, 'batch_2', 'completed'],
    ]);
    const lines = uploadedLines();
    const judgeLines = lines.filter((line) => line.custom_id.startsWith('judge-'));
    expect(judgeLines).toHaveLength(5);
    expect(new Set(judgeLines.map((line) => line.custom_id)).size).toBe(5);
    // The judge jobs were shown while they ran, on their own.
    const judgeProgress = fx.events.filter((event) => event.type === 'batch-progress' && event.jobs.every((job) => job.kind === 'judge'));
    expect(judgeProgress.length).toBeGreaterThan(0);

    const batchRows = await rowsOf(batch.runDir);
    expect(batchRows.map((row) => [row.output, row.evals.polite?.passed, row.batch])).toEqual([
      ['alpha', true, true],
      ['beta', true, true],
      ['gamma', false, true],
      ['delta', true, true],
      ['epsilon', true, true],
    ]);
    // Model answers at half gpt-4o-mini's live price (0.15 / 0.6 USD per million, src/model/prices.ts), as without judges.
    for (const row of batchRows) expect(row.costUsd).toBeCloseTo((2 * 0.075 + 1 * 0.3) / 1_000_000, 15);

    // Judge answers are cached like live ones, marked as batch answers at batch prices (half of
    // gpt-4o-mini's 0.15 / 0.6 USD per million, src/model/prices.ts).
    const judgeEntries = (await readCache(fx.dir)).filter((entry) => typeof entry.response.output === 'object');
    expect(judgeEntries).toHaveLength(5);
    for (const { response } of judgeEntries) {
      expect(response.batch).toBe(true);
      expect(response.usage.inputTokens).toBeGreaterThan(0);
      expect(response.costUsd).toBeCloseTo((response.usage.inputTokens * 0.075 + response.usage.outputTokens * 0.3) / 1_000_000, 15);
    }

    // The same run live, without the cache: the same answers from the fake, the same results.
    const live = await fx.run({ env: env(), cacheMode: 'off' });
    const liveBodies = liveCalls().filter((body) => body.response_format !== undefined);
    expect(liveBodies).toHaveLength(5);
    // Each judge line's body is exactly what the live judge call posted.
    const sortKey = (body: RecordedBody): string => JSON.stringify(body);
    expect(judgeLines.map((line) => line.body).sort((a, b) => sortKey(a).localeCompare(sortKey(b)))).toEqual(
      liveBodies.sort((a, b) => sortKey(a).localeCompare(sortKey(b))),
    );
    expect(scored(batchRows)).toEqual(scored(await rowsOf(live.runDir)));
    // Rows reach the summary in a different order (as their jobs answer), so its sums may differ in the last bit.
    expect(rounded(batch.summary.evals)).toEqual(rounded(live.summary.evals));
    expect(batch.summary.passed).toBe(live.summary.passed);
  });

  it('judge answers from batch jobs are counted at batch prices, per row and in the run totals, as the server billed them', async () => {
    fx = await project();
    const billed = { main: 0, judge: 0 };
    let n = 0;
    server.setHandler((request) => {
      n += 1;
      const judge = request.schema !== undefined;
      const usage = judge ? { input: 200 + n, output: 10 + n } : { input: 20 + n, output: 2 };
      billed[judge ? 'judge' : 'main'] += usage.input + usage.output;
      return { ...(judgeAnswers(request) as object), usage } as ReturnType<OpenAIResponder>;
    });
    const outcome = await fx.run({ env: env(), batch: { pollMs: 5 } });
    expect(liveCalls()).toHaveLength(0);
    const rows = await rowsOf(outcome.runDir);
    // Half gpt-4o-mini's live price of 0.15 / 0.6 USD per million (src/model/prices.ts).
    const batchUsd = (usage: { inputTokens: number; outputTokens: number }): number => (usage.inputTokens * 0.075 + usage.outputTokens * 0.3) / 1_000_000;
    for (const row of rows) {
      const judge = row.judge;
      expect(judge).toMatchObject({ calls: 1, cached: 0, latencyMs: 0 });
      expect(judge?.costUsd).toBeCloseTo(batchUsd(judge!.usage), 15);
    }
    const judgeTokens = rows.reduce((sum, row) => sum + (row.judge?.usage.totalTokens ?? 0), 0);
    expect(judgeTokens).toBe(billed.judge);
    expect(outcome.summary.usage.totalTokens).toBe(billed.main + billed.judge);
    expect(outcome.summary.judge?.calls).toBe(5);
    expect(outcome.summary.judge?.usage.totalTokens).toBe(billed.judge);
    const cost = rows.reduce((sum, row) => sum + (row.costUsd ?? 0) + (row.judge?.costUsd ?? 0), 0);
    expect(outcome.summary.costUsd).toBeCloseTo(cost, 15);
  });

  it('a judge line that failed makes that eval an error saying why; --resume sends only that judge request again', async () => {
    fx = await project();
    server.setHandler((request) => (request.schema !== undefined && request.messagesText.includes('beta') ? { status: 400, message: 'bad judge' } : judgeAnswers(request)));
    const first = await fx.run({ env: env(), batch: { pollMs: 5 } });
    const rows = await rowsOf(first.runDir);
    expect(rows[1]).toMatchObject({ output: 'beta', evals: { exact: { passed: true } } });
    expect(rows[1]?.error).toBeUndefined();
    expect(rows[1]?.evals.polite).toEqual({
      error: `judge batch job batch_2: HTTP 400 bad judge (continue with --resume ${first.runId} to send it again)`,
      errorCode: 'MODEL_BATCH_ROW_FAILED',
    });
    expect(rows.filter((row) => row.evals.polite?.error !== undefined)).toHaveLength(1);
    expect(first.summary).toMatchObject({ rows: 5, errored: 0 });

    server.setHandler(judgeAnswers);
    const resumed = await fx.run({ env: env(), resume: first.runId, batch: { pollMs: 5 } });
    expect(batchCreates()).toBe(3);
    const resent = uploadedLines().slice(10);
    expect(resent).toHaveLength(1);
    expect(resent[0]?.custom_id).toMatch(/^judge-[0-9a-f]{48}$/);
    expect(JSON.stringify(resent[0]?.body)).toContain('beta');
    expect(liveCalls()).toHaveLength(0);
    const after = await rowsOf(first.runDir);
    expect(after.map((row) => [row.index, row.evals.polite?.passed ?? null, row.evals.polite?.error ?? null])).toEqual([
      [0, true, null],
      [1, true, null],
      [2, false, null],
      [3, true, null],
      [4, true, null],
    ]);
    expect(resumed.summary).toMatchObject({ rows: 5, errored: 0 });
    const manifest = await new RunStore(fx.dir).manifest(first.runId);
    expect(manifest.batch?.jobs.map((job) => [job.part, job.kind ?? 'model', job.requests])).toEqual([
      [0, 'model', 5],
      [1, 'judge', 5],
      [2, 'judge', 1],
    ]);
  });

  it('an expired judge job makes the evals it did not answer errors with the reason', async () => {
    fx = await project();
    server.setHandler(judgeAnswers);
    server.batches.plan = (n) => (n === 1 ? { outcome: 'expired', answered: 0 } : {});
    const outcome = await fx.run({ env: env(), concurrency: 1, batch: { pollMs: 5 } });
    const rows = await rowsOf(outcome.runDir);
    expect(new Set(rows.map((row) => row.evals.polite?.error))).toEqual(
      new Set([`judge batch job batch_2: batch_expired: This request was not run: the batch expired. (continue with --resume ${outcome.runId} to send it again)`]),
    );
    expect(rows.map((row) => row.evals.polite?.errorCode)).toEqual(Array(5).fill('MODEL_BATCH_EXPIRED'));
    expect(rows.map((row) => row.evals.exact?.passed)).toEqual([true, true, true, true, true]);
  });

  it('a judge answer that breaks the answer schema is asked again in a second judge round', async () => {
    fx = await project(['polite']);
    // beta's first judgement lacks "passed"; the judge's second request (with the problem appended) is answered.
    server.setHandler((request) =>
      request.schema !== undefined && request.messagesText.includes('beta') && !request.messagesText.includes('did not match')
        ? { object: { reasoning: 'forgot the verdict' } }
        : judgeAnswers(request),
    );
    const outcome = await fx.run({ env: env(), batch: { pollMs: 5 } });
    const manifest = await new RunStore(fx.dir).manifest(outcome.runId);
    expect(manifest.batch?.jobs.map((job) => [job.kind ?? 'model', job.requests])).toEqual([['model', 5], ['judge', 5], ['judge', 1]]);
    const rows = await rowsOf(outcome.runDir);
    expect(rows.map((row) => row.evals.polite?.passed)).toEqual([true, true, false, true, true]);
    expect(liveCalls()).toHaveLength(0);
    // beta's first answer was paid for in this run, though its row read it back from the cache in the next round.
    expect(rows.map((row) => [row.judge?.calls, row.judge?.cached])).toEqual([[1, 0], [2, 0], [1, 0], [1, 0], [1, 0]]);
    expect(outcome.summary.judge).toMatchObject({ calls: 6, cached: 0 });
  });

  it('--judge-live keeps the judge calls live: one round of jobs, five live judge calls', async () => {
    fx = await project();
    server.setHandler(judgeAnswers);
    const outcome = await fx.run({ env: env(), batch: { pollMs: 5, judgeLive: true } });
    expect(batchCreates()).toBe(1);
    expect(liveCalls().filter((body) => body.response_format !== undefined)).toHaveLength(5);
    expect(liveCalls()).toHaveLength(5);
    const rows = await rowsOf(outcome.runDir);
    expect(rows.map((row) => row.evals.polite?.passed)).toEqual([true, true, false, true, true]);
  });

  it('a run made with --judge-live and resumed without flags keeps its judge calls live', async () => {
    fx = await project();
    server.setHandler(judgeAnswers);
    server.batches.hold = true;
    const stop = new AbortController();
    const polls = (): number => server.requests.filter((r) => r.method === 'GET' && r.path === '/v1/batches/batch_1').length;
    const first = fx.run({ env: env(), signal: stop.signal, batch: { pollMs: 5, judgeLive: true } });
    await expect.poll(polls, { timeout: 20_000, interval: 5 }).toBeGreaterThanOrEqual(2);
    stop.abort();
    const interrupted = await first;
    expect(interrupted.status).toBe('interrupted');
    server.batches.hold = false;
    const resumed = await fx.run({ env: env(), resume: interrupted.runId });
    expect(resumed.summary).toMatchObject({ rows: 5, errored: 0 });
    expect(batchCreates()).toBe(1);
    expect(liveCalls().filter((body) => body.response_format !== undefined)).toHaveLength(5);
    const rows = await rowsOf(resumed.runDir);
    expect(rows.map((row) => row.evals.polite?.passed)).toEqual([true, true, false, true, true]);
  });

  it('cached answers are not sent: cached model answers need only a judge job, cached judge answers none', async () => {
    fx = await project(['exact']);
    server.setHandler(judgeAnswers);
    await fx.run({ env: env(), batch: { pollMs: 5 } });
    expect(batchCreates()).toBe(1);
    await writeFile(join(fx.dir, 'prompts/echo.prompt.mdx'), promptFile({ model: 'openai/gpt-4o-mini', evals: ['exact', 'polite'] }));
    const judged = await fx.run({ env: env(), batch: { pollMs: 5 } });
    expect(batchCreates()).toBe(2);
    const manifest = await new RunStore(fx.dir).manifest(judged.runId);
    expect(manifest.batch?.jobs.map((job) => [job.kind, job.requests])).toEqual([['judge', 5]]);
    expect(judged.summary).toMatchObject({ rows: 5, cached: 5, errored: 0 });
    const before = server.requests.length;
    const again = await fx.run({ env: env(), batch: { pollMs: 5 } });
    expect(server.requests.length).toBe(before);
    expect(scored(await rowsOf(again.runDir))).toEqual(scored(await rowsOf(judged.runDir)));
    expect(liveCalls()).toHaveLength(0);
  });

  it('one judge request asked by two rows is one line, and both rows get its answer', async () => {
    fx = await fixture({
      'agentmark.json': agentmarkJson({ scores: { ...scores, polite } }),
      'prompts/echo.prompt.mdx': promptFile({ model: 'openai/gpt-4o-mini', evals: ['polite'] }),
      'datasets/words.jsonl': wordsDataset(['alpha', 'alpha', 'gamma']),
    });
    server.setHandler(judgeAnswers);
    const outcome = await fx.run({ env: env(), batch: { pollMs: 5 } });
    const judgeLines = uploadedLines().filter((line) => line.custom_id.startsWith('judge-'));
    expect(judgeLines).toHaveLength(2);
    const rows = await rowsOf(outcome.runDir);
    expect(rows.map((row) => row.evals.polite?.passed)).toEqual([true, true, false]);
    // The shared line is paid for once: one of the two rows counts it, the other has it for nothing.
    expect(rows.map((row) => row.judge?.cached).sort()).toEqual([0, 0, 1]);
    expect(outcome.summary.judge).toMatchObject({ calls: 3, cached: 1 });
  });

  it('refuses a judge model the Batch API cannot run, before anything is sent, with the --judge-live hint', async () => {
    fx = await fixture({
      'agentmark.json': agentmarkJson({ scores: { ...scores, polite: { ...polite, options: { model: 'mock/judge' } } } }),
      'prompts/echo.prompt.mdx': promptFile({ model: 'openai/gpt-4o-mini', evals: ['polite'] }),
      'datasets/words.jsonl': wordsDataset(words),
    });
    const error = await fx.run({ env: env(), batch: { pollMs: 5 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe('USAGE_BATCH_JUDGE');
    expect((error as UsageError).hint).toBe('add --judge-live: judge calls then run live, as each batch answer is scored');
    expect(server.requests).toHaveLength(0);
  });

  it('a judge prompt of your own naming another provider stops the run when its first request is built, recording no half-scored row', async () => {
    const shipped = await readFile(join(import.meta.dirname, '../../judges/llm-judge.prompt.mdx'), 'utf8');
    fx = await fixture({
      'agentmark.json': agentmarkJson({ scores: { ...scores, polite: { ...polite, options: { prompt: 'judges/mine.prompt.mdx' } } } }),
      'judges/mine.prompt.mdx': shipped.replace('model_name: openai/gpt-4o-mini', 'model_name: mock/judge'),
      'prompts/echo.prompt.mdx': promptFile({ model: 'openai/gpt-4o-mini', evals: ['exact', 'polite'] }),
      'datasets/words.jsonl': wordsDataset(words),
    });
    const error = await fx.run({ env: env(), batch: { pollMs: 5 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('--batch sends judge calls to the OpenAI Batch API too, but the judge model mock/judge is served by the "mock" provider');
    expect(batchCreates()).toBe(1);
    const [runId] = await new RunStore(fx.dir).list().then((runs) => runs.map((run) => run.id));
    expect(await readFile(join(fx.dir, '.agentmark/runs', runId ?? '', 'results.jsonl'), 'utf8')).toBe('');
  });

  it('shows judge jobs apart from model jobs', () => {
    expect(
      formatBatchProgress([
        { part: 0, requests: 5, bytes: 500, status: 'completed', counts: { total: 5, completed: 5, failed: 0 } },
        { part: 1, kind: 'judge', requests: 5, bytes: 900, status: 'in_progress', counts: { total: 5, completed: 2, failed: 1 } },
      ]),
    ).toBe('1 batch job: completed 1 (5/5 done); 1 judge batch job: in_progress 1 (2/5 done, 1 failed)');
    expect(formatBatchProgress([{ part: 1, kind: 'judge', requests: 3, bytes: 600 }])).toBe('1 judge batch job: not uploaded 1 (0/3 done)');
  });
});
