import { openAsBlob } from 'node:fs';
import { saveBody } from './save-body.js';
import { basename } from 'node:path';
import { ModelCallError } from '../errors/index.js';
import { backoffDelay, sleep } from '../model/backoff.js';
import { partFile } from './request-parts.js';
import type { BatchEndpoint, BatchJobRecord, BatchObject } from './types.js';

/** What submitting a job needs to know: where its request file is and how to save progress. */
export interface SubmitContext {
  /** The run folder's `batch/`. */
  dir: string;
  runId: string;
  endpoint: BatchEndpoint;
  /** Writes the jobs' records to the manifest; awaited after every change that must survive a kill. */
  save: () => Promise<void>;
  /** Batch ids the run's other jobs already hold: never adopted as this job's. */
  taken?: ReadonlySet<string>;
}

/** A provider's batch service as the jobs loop uses it (OpenAI's Batch API, Anthropic's Message Batches API). */
export interface BatchApi {
  readonly baseURL: string;
  /**
   * Makes `job` (its request file) a job on the server, saving each id in `job` before the next
   * step, and finding a job an earlier, killed attempt created but never recorded instead of
   * creating a second one.
   */
  submit(job: BatchJobRecord, context: SubmitContext): Promise<BatchObject>;
  retrieve(batchId: string): Promise<BatchObject>;
  cancel(batchId: string): Promise<BatchObject>;
  /** Saves a result file (JSONL), by the id (or URL) the batch object named, at `path`: streamed, never held whole. */
  download(fileId: string, path: string): Promise<void>;
}

export interface BatchClientOptions {
  /** The API's base URL, ending in `/v1`. */
  baseURL: string;
  apiKey: string | undefined;
  /** @default globalThis.fetch (uploads are multipart, which only the built-in fetch sends) */
  fetch?: typeof fetch;
  /** Retries of 429, 5xx and dropped connections per request. @default 5 */
  maxRetries?: number;
  /** First backoff wait; doubles each retry (a Retry-After header wins). @default 1000 */
  retryDelayMs?: number;
  random?: () => number;
  signal?: AbortSignal;
  /** Headers sent with every request in place of `authorization: Bearer <apiKey>` (another provider's auth). */
  headers?: Record<string, string>;
  /** The service named in errors. @default 'the OpenAI Batch API' */
  serviceName?: string;
}

/**
 * The files and batches endpoints of the OpenAI API, nothing more: upload a request file,
 * create, read, list and cancel jobs, download result files. Failures are ModelCallErrors
 * with codes `MODEL_BATCH_*`; rate limits and server errors are retried with backoff first.
 */
export class BatchClient implements BatchApi {
  readonly baseURL: string;
  readonly #options: BatchClientOptions;

  constructor(options: BatchClientOptions) {
    this.baseURL = options.baseURL.replace(/\/+$/, '');
    this.#options = options;
  }

  /** Uploads the request file (id saved), then creates the job; a file uploaded by a killed attempt is first looked for among the jobs. */
  async submit(job: BatchJobRecord, context: SubmitContext): Promise<BatchObject> {
    if (job.inputFileId === undefined) {
      const path = partFile(context.dir, job.part);
      // A file-backed blob: the request file (up to 200 MB) is streamed to the server, never read whole.
      job.inputFileId = await this.upload(`${context.runId}-${basename(path)}`, await openAsBlob(path, { type: 'application/jsonl' }));
      await context.save();
    } else {
      const existing = (await this.list()).find((batch) => batch.input_file_id === job.inputFileId);
      if (existing !== undefined) return existing;
    }
    const metadata = { agentmark_run: context.runId, agentmark_part: String(job.part), ...(job.kind === undefined ? {} : { agentmark_kind: job.kind }) };
    return this.create(job.inputFileId, job.endpoint ?? context.endpoint, metadata);
  }

  /** Uploads a JSONL request file (`purpose: batch`); returns its file id. */
  async upload(name: string, content: Blob): Promise<string> {
    const file = await this.request('upload a request file', 'POST', '/files', () => {
      const form = new FormData();
      form.append('purpose', 'batch');
      form.append('file', content, name);
      return form;
    });
    return idOf(file, 'file');
  }

  async create(inputFileId: string, endpoint: BatchEndpoint, metadata: Record<string, string>): Promise<BatchObject> {
    const body = JSON.stringify({ input_file_id: inputFileId, endpoint, completion_window: '24h', metadata });
    return asBatch(await this.request('create a batch job', 'POST', '/batches', () => body));
  }

  async retrieve(batchId: string): Promise<BatchObject> {
    return asBatch(await this.request(`read batch ${batchId}`, 'GET', `/batches/${encodeURIComponent(batchId)}`));
  }

  async cancel(batchId: string): Promise<BatchObject> {
    return asBatch(await this.request(`cancel batch ${batchId}`, 'POST', `/batches/${encodeURIComponent(batchId)}/cancel`));
  }

  /** The most recent jobs, newest first (one page of up to `limit`). */
  async list(limit = 100): Promise<BatchObject[]> {
    const page = await this.request('list batch jobs', 'GET', `/batches?limit=${limit}`);
    const data = (page as { data?: unknown }).data;
    return Array.isArray(data) ? data.map(asBatch) : [];
  }

  /** Saves a result file (output or errors, JSONL) at `path`. */
  async download(fileId: string, path: string): Promise<void> {
    await saveBody(await this.send(`download file ${fileId}`, 'GET', `/files/${encodeURIComponent(fileId)}/content`), path);
  }

  /** Sends a request (retried on 429, 5xx and dropped connections) and parses its JSON answer. */
  protected async request(what: string, method: string, path: string, body?: () => string | FormData, headers?: Record<string, string>, retries?: number): Promise<unknown> {
    const response = await this.send(what, method, path, body, headers, retries);
    const text = await response.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ModelCallError('MODEL_BATCH_BAD_RESPONSE', `could not ${what}: the server's answer is not JSON (${text.slice(0, 120)})`, {
        hint: `check that ${this.baseURL} is a server with ${this.#options.serviceName ?? 'the OpenAI Batch API'}`,
      });
    }
  }

  /** `path` is under the base URL, or a full URL (a results URL the server gave). */
  /** `retries` overrides `maxRetries` for this request. */
  protected async send(what: string, method: string, path: string, body?: () => string | FormData, extra?: Record<string, string>, retries?: number): Promise<Response> {
    const { retryDelayMs = 1000, random = Math.random, signal } = this.#options;
    const maxRetries = retries ?? this.#options.maxRetries ?? 5;
    const doFetch = this.#options.fetch ?? globalThis.fetch;
    const headers: Record<string, string> = { ...this.#options.headers, ...extra };
    if (this.#options.headers === undefined && this.#options.apiKey !== undefined) headers.authorization = `Bearer ${this.#options.apiKey}`;
    const url = /^https?:\/\//.test(path) ? path : `${this.baseURL}${path}`;
    for (let attempt = 1; ; attempt++) {
      const payload = body?.();
      if (typeof payload === 'string') headers['content-type'] = 'application/json';
      let response: Response;
      try {
        response = await doFetch(url, { method, headers, ...(payload === undefined ? {} : { body: payload }), ...(signal ? { signal } : {}) });
      } catch (error) {
        if (signal?.aborted || attempt > maxRetries) {
          throw new ModelCallError('MODEL_BATCH_CONNECTION_FAILED', `could not ${what}: ${connectionMessage(error)}`, {
            retryable: true,
            cause: error,
            hint: `check that the server at ${this.baseURL} is running`,
          });
        }
        await sleep(backoffDelay(attempt, retryDelayMs, random), signal);
        continue;
      }
      if (response.ok) return response;
      const text = await response.text().catch(() => '');
      const retryable = response.status === 429 || response.status >= 500;
      if (!retryable || attempt > maxRetries) throw this.#httpError(what, response.status, text, attempt);
      await sleep(retryAfterMs(response) ?? backoffDelay(attempt, retryDelayMs, random), signal);
    }
  }

  #httpError(what: string, status: number, text: string, attempts: number): ModelCallError {
    const after = attempts > 1 ? ` (after ${attempts} attempts)` : '';
    const message = `could not ${what}: HTTP ${status} ${errorMessage(text)}${after}`;
    const key = this.#options.apiKey;
    const safe = key === undefined || key === '' ? message : message.split(key).join('[redacted]');
    if (status === 404) {
      return new ModelCallError('MODEL_BATCH_NOT_SUPPORTED', safe, {
        statusCode: status,
        hint: `the server at ${this.baseURL} may not implement ${this.#options.serviceName ?? 'the OpenAI Batch API'} (see "Which servers support batches" in docs/batch-runs.md); run without --batch`,
      });
    }
    const code = status === 401 || status === 403 ? 'MODEL_AUTH_FAILED' : status === 429 ? 'MODEL_BATCH_RATE_LIMITED' : 'MODEL_BATCH_API_ERROR';
    return new ModelCallError(code, safe, { statusCode: status, retryable: status === 429 || status >= 500 });
  }
}

function asBatch(value: unknown): BatchObject {
  const batch = value as Partial<BatchObject> | null;
  if (batch === null || typeof batch !== 'object' || typeof batch.id !== 'string' || typeof batch.status !== 'string') {
    throw new ModelCallError('MODEL_BATCH_BAD_RESPONSE', `the server's answer is not a batch object: ${JSON.stringify(value).slice(0, 120)}`);
  }
  return batch as BatchObject;
}

function idOf(value: unknown, kind: string): string {
  const id = (value as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || id === '') {
    throw new ModelCallError('MODEL_BATCH_BAD_RESPONSE', `the server's answer has no ${kind} id: ${JSON.stringify(value).slice(0, 120)}`);
  }
  return id;
}

/** OpenAI's `{ error: { message } }`, else the start of the body. */
function errorMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') return message;
  } catch {
    // not JSON: shown as is
  }
  return text.slice(0, 200);
}

function retryAfterMs(response: Response): number | undefined {
  const ms = Number(response.headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

function connectionMessage(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === 'string') return `${cause.code}${typeof cause.message === 'string' ? ` (${cause.message})` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

