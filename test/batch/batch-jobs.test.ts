import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchClient, type BatchJobRecord } from '../../src/batch/index.js';
import { submitJobs, type JobsContext } from '../../src/batch/batch-jobs.js';
import { partFile } from '../../src/batch/request-parts.js';
import { ModelCallError } from '../../src/errors/index.js';
import { useOpenAIServer } from '../helpers/openai-server.js';

const server = useOpenAIServer();
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentmark-batch-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const line = JSON.stringify({ custom_id: 'row-0-0', method: 'POST', url: '/v1/chat/completions', body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] } });

function context(saves: BatchJobRecord[][]): JobsContext & { jobs: BatchJobRecord[] } {
  const jobs: BatchJobRecord[] = [{ part: 0, requests: 1, bytes: line.length + 1 }];
  return {
    jobs,
    client: new BatchClient({ baseURL: server.url, apiKey: 'test', retryDelayMs: 1 }),
    dir,
    runId: 'run-1',
    endpoint: '/v1/chat/completions',
    save: async () => void saves.push(jobs.map((job) => ({ ...job }))),
    progress: () => undefined,
    pollMs: 1,
  };
}

describe('submitting batch jobs', () => {
  it('saves the file id before creating the job, and the batch id once created', async () => {
    await writeFile(partFile(dir, 0), `${line}\n`);
    const saves: BatchJobRecord[][] = [];
    const ctx = context(saves);
    await submitJobs(ctx.jobs, ctx);
    expect(saves.map((jobs) => [jobs[0]?.inputFileId, jobs[0]?.batchId])).toEqual([
      ['file-1', undefined],
      ['file-1', 'batch_1'],
    ]);
    expect(server.batches.batches[0]).toMatchObject({ input_file_id: 'file-1', endpoint: '/v1/chat/completions', metadata: { agentmark_run: 'run-1', agentmark_part: '0' } });
  });

  it('adopts the job a killed attempt created but never recorded, instead of creating a second', async () => {
    await writeFile(partFile(dir, 0), `${line}\n`);
    const first = context([]);
    await submitJobs(first.jobs, first);
    // The next attempt only knows the uploaded file: the kill came before the batch id was saved.
    const saves: BatchJobRecord[][] = [];
    const again = context(saves);
    again.jobs[0] = { part: 0, requests: 1, bytes: line.length + 1, inputFileId: 'file-1' };
    await submitJobs(again.jobs, again);
    expect(again.jobs[0]).toMatchObject({ inputFileId: 'file-1', batchId: 'batch_1', status: 'validating' });
    expect(server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/batches')).toHaveLength(1);
    expect(server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/files')).toHaveLength(1);
  });

  it('a server without the Batch API is a set-up error (exit 2) naming the base URL', async () => {
    await writeFile(partFile(dir, 0), `${line}\n`);
    server.batches.absent = true;
    const ctx = context([]);
    const error = await submitJobs(ctx.jobs, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ code: 'MODEL_BATCH_NOT_SUPPORTED', exitCode: 2, statusCode: 404 });
    expect((error as ModelCallError).hint).toContain(server.url);
  });
});
