import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors/index.js';
import { RunStore } from '../../src/store/index.js';
import { batchCreates as countBatchCreates, batchEnv, rowsOf } from './batch-kit.js';
import { echoResponder, useOpenAIServer } from '../helpers/openai-server.js';
import { fixture, promptFile, wordsDataset, type Fixture } from '../experiment/setup.js';

const server = useOpenAIServer();
let fx: Fixture;
afterEach(() => fx.cleanup());

const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const env = (): NodeJS.ProcessEnv => batchEnv(server);
const batchCreates = (): number => countBatchCreates(server);
const liveCalls = (): number => server.requests.filter((r) => r.path === '/v1/chat/completions').length;

async function project(extra?: string): Promise<Fixture> {
  return fixture({
    'prompts/echo.prompt.mdx': promptFile({ model: 'openai/gpt-4o-mini', ...(extra === undefined ? {} : { extra }) }),
    'datasets/words.jsonl': wordsDataset(words),
  });
}

describe('run-experiment --batch against the loopback Batch API', () => {
  it('sends every row as one job, scores the answers, and makes no live call', async () => {
    fx = await project();
    const outcome = await fx.run({ env: env(), batch: { pollMs: 5 } });
    expect(outcome.summary).toMatchObject({ rows: 5, errored: 0, passed: true, cached: 0 });
    expect(liveCalls()).toBe(0);
    expect(batchCreates()).toBe(1);
    // The request file holds the body the live path sends: same model, messages and settings.
    const [file] = [...server.batches.files.values()];
    const lines = (file?.content ?? '').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(5);
    expect(lines.map((line) => line.custom_id).sort()).toEqual(['row-0-0', 'row-1-0', 'row-2-0', 'row-3-0', 'row-4-0']);
    const first = lines.find((line) => line.custom_id === 'row-0-0');
    expect(first).toEqual({
      custom_id: 'row-0-0',
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: 'gpt-4o-mini', temperature: 0.5, messages: [{ role: 'user', content: 'alpha' }] },
    });
    const rows = await rowsOf(outcome.runDir);
    expect(rows.map((row) => row.output)).toEqual(words);
    // No live latency; tokens as the server counted them (words of "user: alpha", of "alpha");
    // cost at half the live price of gpt-4o-mini (0.15 / 0.6 USD per million, src/model/prices.ts).
    for (const row of rows) {
      expect(row.latencyMs).toBeUndefined();
      expect(row.batch).toBe(true);
      expect(row.usage).toEqual({ inputTokens: 2, outputTokens: 1, totalTokens: 3 });
      expect(row.costUsd).toBeCloseTo((2 * 0.075 + 1 * 0.3) / 1_000_000, 15);
    }
    expect(outcome.summary.costUsd).toBeCloseTo((5 * (2 * 0.075 + 1 * 0.3)) / 1_000_000, 15);
    expect(outcome.summary.latencyMs).toEqual({});
    const manifest = await new RunStore(fx.dir).manifest(outcome.runId);
    expect(manifest.batch).toMatchObject({
      endpoint: '/v1/chat/completions',
      jobs: [{ part: 0, requests: 5, inputFileId: 'file-1', batchId: 'batch_1', status: 'completed', downloaded: true }],
    });
  });

  it('answers a second run from the cache without sending anything', async () => {
    fx = await project();
    await fx.run({ env: env(), batch: { pollMs: 5 } });
    const before = server.requests.length;
    const outcome = await fx.run({ env: env(), batch: { pollMs: 5 } });
    expect(outcome.summary).toMatchObject({ rows: 5, cached: 5, errored: 0 });
    expect(server.requests.length).toBe(before);
  });

  it('splits the requests into jobs of at most --batch-max-requests', async () => {
    fx = await project();
    const outcome = await fx.run({ env: env(), batch: { pollMs: 5, maxRequests: 2 } });
    expect(outcome.summary).toMatchObject({ rows: 5, errored: 0 });
    const manifest = await new RunStore(fx.dir).manifest(outcome.runId);
    expect(manifest.batch?.jobs.map((job) => job.requests)).toEqual([2, 2, 1]);
    expect(batchCreates()).toBe(3);
  });

  it('starts a new file when the next line would pass the byte limit, and makes a line too large for any file a row error', async () => {
    fx = await project();
    // Each line is ~140 bytes: a 200-byte limit holds one line per file.
    const outcome = await fx.run({ env: env(), batch: { pollMs: 5, maxBytes: 200 } });
    expect(outcome.summary).toMatchObject({ rows: 5, errored: 0 });
    const manifest = await new RunStore(fx.dir).manifest(outcome.runId);
    expect(manifest.batch?.jobs.map((job) => job.requests)).toEqual([1, 1, 1, 1, 1]);
    for (const job of manifest.batch?.jobs ?? []) expect(job.bytes).toBeLessThanOrEqual(200);
    const tight = await fx.run({ env: env(), cacheMode: 'off', batch: { pollMs: 5, maxBytes: 50 } });
    expect(tight.summary).toMatchObject({ rows: 5, errored: 5 });
    const rows = await rowsOf(tight.runDir);
    expect(rows[0]?.errorCode).toBe('USAGE_BATCH_REQUEST_TOO_LARGE');
  });

  it('turns a failed line, an expired job and a partial output into row errors with the reason', async () => {
    fx = await project();
    server.setHandler((request) => (request.lastUserText === 'beta' ? { status: 400, message: 'bad beta' } : echoResponder(request)));
    // One row at a time, so the files are in dataset order: job 0 (alpha, beta) completes with a
    // failed line, job 1 (gamma, delta) expires after one answer, job 2 (epsilon) loses its line.
    server.batches.plan = (n) => (n === 1 ? { outcome: 'expired', answered: 1 } : n === 2 ? { missing: [0] } : {});
    const outcome = await fx.run({ env: env(), concurrency: 1, batch: { pollMs: 5, maxRequests: 2 } });
    const rows = await rowsOf(outcome.runDir);
    expect(rows.map((row) => [row.input.word, row.output ?? null, row.errorCode ?? null, row.error ?? null])).toEqual([
      ['alpha', 'alpha', null, null],
      ['beta', null, 'MODEL_BATCH_ROW_FAILED', `batch job batch_1: HTTP 400 bad beta (continue with --resume ${outcome.runId} to send it again)`],
      ['gamma', 'gamma', null, null],
      ['delta', null, 'MODEL_BATCH_EXPIRED', `batch job batch_2: batch_expired: This request was not run: the batch expired. (continue with --resume ${outcome.runId} to send it again)`],
      ['epsilon', null, 'MODEL_BATCH_MISSING', `batch job batch_3 ended completed but its output has no answer for this request (partial output) (continue with --resume ${outcome.runId} to send it again)`],
    ]);
    expect(outcome.summary).toMatchObject({ rows: 5, errored: 3, passed: false });
  });

  it('--resume sends again only the rows a job failed, in a new job, and keeps one result per row', async () => {
    fx = await project();
    server.setHandler((request) => (request.lastUserText === 'beta' ? { status: 400, message: 'bad beta' } : echoResponder(request)));
    server.batches.plan = (n) => (n === 1 ? { outcome: 'expired', answered: 1 } : n === 2 ? { missing: [0] } : {});
    const first = await fx.run({ env: env(), concurrency: 1, batch: { pollMs: 5, maxRequests: 2 } });
    expect(first.summary.errored).toBe(3);
    server.setHandler(echoResponder);
    server.batches.plan = () => ({});
    const resumed = await fx.run({ env: env(), concurrency: 1, resume: first.runId, batch: { pollMs: 5, maxRequests: 2 } });
    expect(resumed.summary).toMatchObject({ rows: 5, errored: 0, passed: true });
    expect(batchCreates()).toBe(5);
    const uploads = [...server.batches.files.values()].filter((file) => file.purpose === 'batch').map((file) => file.content);
    expect(uploads).toHaveLength(5);
    const resent = uploads.slice(3);
    const words = resent.join('').trim().split('\n').map((line) => (JSON.parse(line) as { custom_id: string }).custom_id);
    expect(words).toEqual(['row-1-0', 'row-3-0', 'row-4-0']);
    const rows = await rowsOf(first.runDir);
    expect(rows.map((row) => [row.index, row.output])).toEqual([
      [0, 'alpha'],
      [1, 'beta'],
      [2, 'gamma'],
      [3, 'delta'],
      [4, 'epsilon'],
    ]);
    const manifest = await new RunStore(fx.dir).manifest(first.runId);
    expect(manifest.batch?.jobs.map((job) => [job.part, job.batchId, job.status, job.requests])).toEqual([
      [0, 'batch_1', 'completed', 2],
      [1, 'batch_2', 'expired', 2],
      [2, 'batch_3', 'completed', 1],
      [3, 'batch_4', 'completed', 2],
      [4, 'batch_5', 'completed', 1],
    ]);
  });

  it('uses batchInput / batchOutput prices from the config when given', async () => {
    fx = await project();
    const outcome = await fx.run({ env: env(), batch: { pollMs: 5 } }, { prices: { 'openai/gpt-4o-mini': { input: 1, output: 2, batchInput: 0.4, batchOutput: 0.8 } } });
    // 5 rows × (2 input tokens × 0.4 + 1 output token × 0.8) USD per million.
    expect(outcome.summary.costUsd).toBeCloseTo((5 * (2 * 0.4 + 1 * 0.8)) / 1_000_000, 15);
  });

  it('a job that failed validation makes each of its rows an error saying why', async () => {
    fx = await project();
    server.batches.plan = () => ({ outcome: 'failed', failure: 'model not available for batch' });
    const outcome = await fx.run({ env: env(), batch: { pollMs: 5 } });
    const rows = await rowsOf(outcome.runDir);
    expect(new Set(rows.map((row) => row.error))).toEqual(
      new Set([`batch job batch_1 failed: line 1: model not available for batch (continue with --resume ${outcome.runId} to send it again)`]),
    );
    expect(outcome.summary).toMatchObject({ rows: 5, errored: 5 });
  });

  it('retries an upload refused with 429 and submits the job once', async () => {
    fx = await project();
    server.batches.uploadFaults = 2;
    const outcome = await fx.run({ env: env(), batch: { pollMs: 5 } });
    expect(outcome.summary).toMatchObject({ rows: 5, errored: 0 });
    expect(server.requests.filter((r) => r.path === '/v1/files').length).toBe(3);
    expect(batchCreates()).toBe(1);
  });

  it('refuses a prompt with tools, before anything is sent (exit 2)', async () => {
    fx = await project('  tools: [lookup]');
    const error = await fx.run({ env: env(), batch: { pollMs: 5 } }, { tools: { lookup: { description: 'x', inputSchema: { type: 'object' } } as never } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe('USAGE_BATCH_TOOLS');
    expect(server.requests).toHaveLength(0);
  });
});
