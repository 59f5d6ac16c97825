import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicBatchClient, batchCostOf, type BatchJobRecord } from '../../src/batch/index.js';
import { outputFile, readAnswers } from '../../src/batch/batch-answers.js';
import { failureOf } from '../../src/batch/batch-failure.js';
import { downloadResults, pollJobs, submitJobs, type JobsContext } from '../../src/batch/batch-jobs.js';
import { partFile } from '../../src/batch/request-parts.js';
import { echoText, startAnthropicServer, type AnthropicServer } from '../helpers/anthropic-server.js';

let server: AnthropicServer;
beforeAll(async () => {
  server = await startAnthropicServer();
});
afterAll(() => server.close());

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentmark-anthropic-batch-'));
  server.requests.length = 0;
  server.batches.length = 0;
  server.hold = false;
  server.dropCreates = 0;
  server.refuseCreates = 0;
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const lines = ['alpha', 'beta'].map((word, i) => JSON.stringify({ custom_id: `row-${i}-0`, params: { model: 'claude-haiku-4-5', max_tokens: 50, messages: [{ role: 'user', content: word }] } }));
const creates = (): number => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages/batches').length;

function context(jobs: BatchJobRecord[], saves: BatchJobRecord[][]): JobsContext {
  return {
    client: new AnthropicBatchClient({ baseURL: server.url, apiKey: 'test-key', retryDelayMs: 1 }),
    dir,
    runId: 'run-1',
    endpoint: '/v1/messages',
    save: async () => void saves.push(jobs.map((job) => ({ ...job }))),
    progress: () => undefined,
    pollMs: 1,
  };
}

describe("Anthropic's Message Batches API", () => {
  it('saves when the create request is sent before sending it, then the batch id; the lines go in its body with the betas in its header', async () => {
    await writeFile(partFile(dir, 0), `${lines.join('\n')}\n`);
    const jobs: BatchJobRecord[] = [{ part: 0, requests: 2, bytes: 1, betas: ['structured-outputs-2025-11-13'] }];
    const saves: BatchJobRecord[][] = [];
    await submitJobs(jobs, context(jobs, saves));
    expect(saves.map((saved) => [typeof saved[0]?.sentAt, saved[0]?.batchId])).toEqual([
      ['string', undefined],
      ['string', 'msgbatch_1'],
    ]);
    const create = server.requests.find((r) => r.path === '/v1/messages/batches');
    expect(create?.body).toEqual({ requests: lines.map((line) => JSON.parse(line) as unknown) });
    expect(create?.headers).toMatchObject({ 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'structured-outputs-2025-11-13' });
    expect(jobs[0]).toMatchObject({ batchId: 'msgbatch_1', status: 'in_progress', counts: { total: 2, completed: 0, failed: 0 } });
  });

  it('adopts the batch a killed attempt created but never recorded, instead of creating a second', async () => {
    await writeFile(partFile(dir, 0), `${lines.join('\n')}\n`);
    const jobs: BatchJobRecord[] = [{ part: 0, requests: 2, bytes: 1 }];
    const saves: BatchJobRecord[][] = [];
    await submitJobs(jobs, context(jobs, saves));
    // The next attempt knows only what was saved before the create request: the kill came before its answer.
    const killed = [{ ...(saves[0]?.[0] as BatchJobRecord) }];
    expect(killed[0]?.batchId).toBeUndefined();
    await submitJobs(killed, context(killed, []));
    expect(creates()).toBe(1);
    expect(killed[0]?.batchId).toBe('msgbatch_1');
  });

  it('a create whose answer was lost is looked for before it is sent again: one batch', async () => {
    await writeFile(partFile(dir, 0), `${lines.join('\n')}\n`);
    const jobs: BatchJobRecord[] = [{ part: 0, requests: 2, bytes: 1 }];
    server.dropCreates = 1;
    await submitJobs(jobs, context(jobs, []));
    expect(creates()).toBe(1);
    expect(server.requests.filter((r) => r.method === 'GET' && r.path === '/v1/messages/batches')).toHaveLength(1);
    expect(jobs[0]?.batchId).toBe('msgbatch_1');
  });

  it("a refused create never adopts the batch of another part of the run with as many requests", async () => {
    await writeFile(partFile(dir, 0), `${lines.join('\n')}\n`);
    await writeFile(partFile(dir, 1), `${lines.join('\n')}\n`);
    const jobs: BatchJobRecord[] = [
      { part: 0, requests: 2, bytes: 1 },
      { part: 1, requests: 2, bytes: 1 },
    ];
    await submitJobs([jobs[0] as BatchJobRecord], context(jobs, []));
    server.refuseCreates = 1;
    await submitJobs(jobs, context(jobs, []));
    expect(jobs.map((job) => job.batchId)).toEqual(['msgbatch_1', 'msgbatch_2']);
    expect(creates()).toBe(3);
  });

  it('creates the batch when the killed attempt’s create request never reached the server', async () => {
    await writeFile(partFile(dir, 0), `${lines.join('\n')}\n`);
    const jobs: BatchJobRecord[] = [{ part: 0, requests: 2, bytes: 1, sentAt: new Date().toISOString() }];
    await submitJobs(jobs, context(jobs, []));
    expect(creates()).toBe(1);
    expect(jobs[0]?.batchId).toBe('msgbatch_1');
  });

  it('reads succeeded, errored, canceled and expired results as answers and the failures of a live run', async () => {
    await writeFile(partFile(dir, 0), `${lines.join('\n')}\n`);
    const jobs: BatchJobRecord[] = [{ part: 0, requests: 2, bytes: 1 }];
    const ctx = context(jobs, []);
    server.setResponder((params) => (JSON.stringify(params).includes('beta') ? { error: 'max_tokens: too large', status: 400 } : { text: 'ALPHA' }));
    await submitJobs(jobs, ctx);
    expect(await pollJobs(jobs, ctx)).toBe(true);
    await downloadResults(jobs, ctx);
    expect(jobs[0]).toMatchObject({ status: 'completed', counts: { total: 2, completed: 1, failed: 1 }, downloaded: true });
    // Canceled and expired lines, as a cancelled or expired batch writes them.
    const more = [
      { custom_id: 'row-2-0', result: { type: 'canceled' } },
      { custom_id: 'row-3-0', result: { type: 'expired' } },
    ];
    await writeFile(outputFile(dir, 0, 'output'), `${await readFile(outputFile(dir, 0, 'output'), 'utf8')}${more.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const answers = await readAnswers(dir, jobs);
    expect(answers.get('row-0-0')).toMatchObject({ ok: true, body: { type: 'message', content: [{ type: 'text', text: 'ALPHA' }] } });
    expect(answers.get('row-1-0')).toEqual({ ok: false, code: 'invalid_request_error', reason: 'invalid_request_error: max_tokens: too large' });
    expect(['row-1-0', 'row-2-0', 'row-3-0'].map((id) => failureOf(id, jobs[0], answers.get(id), 'run-1').code)).toEqual([
      'MODEL_BATCH_ROW_FAILED',
      'MODEL_BATCH_CANCELLED',
      'MODEL_BATCH_EXPIRED',
    ]);
    server.setResponder(echoText);
  });

  it('a cancelled batch ends cancelled, its requests canceled', async () => {
    await writeFile(partFile(dir, 0), `${lines.join('\n')}\n`);
    const jobs: BatchJobRecord[] = [{ part: 0, requests: 2, bytes: 1 }];
    const ctx = context(jobs, []);
    server.hold = true;
    await submitJobs(jobs, ctx);
    const client = ctx.client as AnthropicBatchClient;
    expect(await client.cancel('msgbatch_1')).toMatchObject({ status: 'cancelling' });
    expect(await pollJobs(jobs, ctx)).toBe(true);
    expect(jobs[0]).toMatchObject({ status: 'cancelled', counts: { total: 2, completed: 0, failed: 2 } });
  });

  it('prices batch answers at half the live price unless the config gives batch prices', () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000, totalTokens: 2_000_000 };
    expect(batchCostOf('anthropic/claude-haiku-4-5', usage, { 'anthropic/claude-haiku-4-5': { input: 1, output: 5 } })).toBe(3);
    expect(batchCostOf('anthropic/claude-haiku-4-5', usage, { 'anthropic/claude-haiku-4-5': { input: 1, output: 5, batchInput: 0.4, batchOutput: 2 } })).toBe(2.4);
  });
});

