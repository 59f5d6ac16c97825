import { readFile } from 'node:fs/promises';
import { ModelCallError } from '../errors/index.js';
import { backoffDelay, sleep } from '../model/backoff.js';
import { BatchClient, type BatchClientOptions, type SubmitContext } from './batch-client.js';
import { partFile } from './request-parts.js';
import { saveBody } from './save-body.js';
import type { BatchJobRecord, BatchObject, BatchStatus } from './types.js';

/** The `anthropic-version` header the Messages API and its batches take (the one @ai-sdk/anthropic sends). */
const ANTHROPIC_VERSION = '2023-06-01';

/**
 * How far the server's clock may be behind ours when a killed attempt's job is looked for by
 * its creation time.
 */
const CLOCK_SKEW_MS = 5 * 60_000;

/** The fields of Anthropic's MessageBatch object this tool reads. */
interface MessageBatch {
  id: string;
  processing_status: 'in_progress' | 'canceling' | 'ended';
  request_counts?: { processing?: number; succeeded?: number; errored?: number; canceled?: number; expired?: number };
  created_at?: string;
  cancel_initiated_at?: string | null;
  results_url?: string | null;
}

/**
 * Anthropic's Message Batches API (`/v1/messages/batches`): create (the request lines go in the
 * body, there is no upload), retrieve, list, cancel, and the results (JSONL at `results_url`).
 * Its batches are read as the OpenAI client's batch objects, so the jobs loop, the manifest and
 * `agentmark batches` treat both alike: `in_progress` → in_progress, `canceling` → cancelling,
 * `ended` → completed (cancelled when a cancel was asked), `results_url` → the output file.
 */
export class AnthropicBatchClient extends BatchClient {
  readonly #retries: number;
  readonly #retryDelayMs: number;
  readonly #signal: AbortSignal | undefined;

  constructor(options: Omit<BatchClientOptions, 'headers' | 'serviceName'>) {
    const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
    if (options.apiKey !== undefined) headers['x-api-key'] = options.apiKey;
    super({ ...options, headers, serviceName: "Anthropic's Message Batches API" });
    this.#retries = options.maxRetries ?? 5;
    this.#retryDelayMs = options.retryDelayMs ?? 1000;
    this.#signal = options.signal;
  }

  /**
   * Creates the batch from the request file. The time of the first try is saved before it is
   * sent: a batch carries no metadata, so after a kill that came before its id was saved, the
   * job is looked for among the server's batches created since then with as many requests, and
   * adopted instead of being created twice. For the same reason a create whose answer was lost
   * (a dropped connection, a 5xx) is looked for the same way before it is sent again.
   */
  override async submit(job: BatchJobRecord, context: SubmitContext): Promise<BatchObject> {
    if (job.sentAt !== undefined) {
      const found = await this.#findSent(job, context.taken);
      if (found !== undefined) return found;
    }
    const text = await readFile(partFile(context.dir, job.part), 'utf8');
    const lines = text.split('\n').filter((line) => line !== '');
    job.sentAt = new Date().toISOString();
    await context.save();
    const beta = job.betas !== undefined && job.betas.length > 0 ? { 'anthropic-beta': job.betas.join(',') } : undefined;
    const body = (): string => `{"requests":[${lines.join(',')}]}`;
    for (let attempt = 1; ; attempt++) {
      try {
        return asBatch(await this.request('create a message batch', 'POST', '/messages/batches', body, beta, 0));
      } catch (error) {
        const retryable = error instanceof ModelCallError && error.retryable === true;
        if (!retryable || attempt > this.#retries || this.#signal?.aborted) throw error;
        await sleep(backoffDelay(attempt, this.#retryDelayMs, Math.random), this.#signal);
        const found = await this.#findSent(job, context.taken);
        if (found !== undefined) return found;
      }
    }
  }

  override async retrieve(batchId: string): Promise<BatchObject> {
    return asBatch(await this.request(`read message batch ${batchId}`, 'GET', `/messages/batches/${encodeURIComponent(batchId)}`));
  }

  override async cancel(batchId: string): Promise<BatchObject> {
    return asBatch(await this.request(`cancel message batch ${batchId}`, 'POST', `/messages/batches/${encodeURIComponent(batchId)}/cancel`));
  }

  /** The most recent batches, newest first (one page of up to `limit`). */
  override async list(limit = 100): Promise<BatchObject[]> {
    const page = await this.request('list message batches', 'GET', `/messages/batches?limit=${limit}`);
    const data = (page as { data?: unknown }).data;
    return Array.isArray(data) ? data.map(asBatch) : [];
  }

  /** Saves the results (JSONL) at the batch's `results_url` at `path`. */
  override async download(resultsUrl: string, path: string): Promise<void> {
    await saveBody(await this.send('download batch results', 'GET', resultsUrl), path);
  }

  override async upload(): Promise<string> {
    throw new Error("Anthropic's Message Batches API takes no uploads: the requests go in the create request");
  }

  override async create(): Promise<BatchObject> {
    throw new Error('use submit(): an Anthropic batch is created from its request file');
  }

  /**
   * The batch a killed attempt created for `job`, if the server has one: created since `sentAt`,
   * with `job.requests` requests, and not one the run's other jobs hold (parts of a run often
   * have as many requests each).
   */
  async #findSent(job: BatchJobRecord, taken: ReadonlySet<string> = new Set()): Promise<BatchObject | undefined> {
    const since = Date.parse(job.sentAt ?? '') - CLOCK_SKEW_MS;
    const candidates = (await this.list()).filter((batch) => {
      if (taken.has(batch.id)) return false;
      const created = Date.parse(batch.created_at ?? '');
      return (batch.request_counts?.total ?? 0) === job.requests && Number.isFinite(created) && created >= since;
    });
    // Newest first: the oldest one made since is the one this job sent first.
    return candidates.at(-1);
  }
}

function asBatch(value: unknown): BatchObject {
  const batch = value as Partial<MessageBatch> | null;
  if (batch === null || typeof batch !== 'object' || typeof batch.id !== 'string' || typeof batch.processing_status !== 'string') {
    throw new ModelCallError('MODEL_BATCH_BAD_RESPONSE', `the server's answer is not a message batch: ${JSON.stringify(value).slice(0, 120)}`);
  }
  const counts = batch.request_counts ?? {};
  const failed = (counts.errored ?? 0) + (counts.canceled ?? 0) + (counts.expired ?? 0);
  const completed = counts.succeeded ?? 0;
  return {
    id: batch.id,
    status: statusOf(batch as MessageBatch),
    input_file_id: '',
    output_file_id: batch.results_url ?? null,
    request_counts: { total: (counts.processing ?? 0) + completed + failed, completed, failed },
    ...(typeof batch.created_at === 'string' ? { created_at: batch.created_at } : {}),
  };
}

function statusOf(batch: MessageBatch): BatchStatus {
  switch (batch.processing_status) {
    case 'in_progress':
      return 'in_progress';
    case 'canceling':
      return 'cancelling';
    default:
      return batch.cancel_initiated_at ? 'cancelled' : 'completed';
  }
}
