import { join } from 'node:path';
import type { Tool } from 'ai';
import type { DatasetRow } from '../dataset/types.js';
import { ModelCallError } from '../errors/index.js';
import type { RunListener } from '../experiment/events.js';
import type { BatchRunOptions } from '../experiment/options.js';
import { runPool } from '../experiment/pool.js';
import { processRow, RowAborted, type RowPipeline } from '../experiment/row-pipeline.js';
import type { RowResult } from '../experiment/types.js';
import type { ModelPrice, ModelRequest, ModelResponse } from '../model/types.js';
import { rowKey, type RunHandleLike } from '../store/index.js';
import { customIdOf, readAnswers, requestPartOf, type BatchAnswer } from './batch-answers.js';
import { BatchClient } from './batch-client.js';
import { downloadResults, isFinal, pollJobs, submitJobs, type JobsContext } from './batch-jobs.js';
import { batchCostOf } from './batch-price.js';
import { ProviderBridge } from './provider-bridge.js';
import { DEFAULT_LIMITS, RequestParts, type BatchLimits } from './request-parts.js';
import type { BatchEndpoint, BatchJobRecord, BatchManifest } from './types.js';

export interface BatchSettings {
  limits: BatchLimits;
  /** First wait between polls, ms. */
  pollMs: number;
}

/** The run's `--batch` options with their defaults. */
export function batchSettingsOf(batch: BatchRunOptions): BatchSettings {
  return {
    limits: { maxRequests: batch.maxRequests ?? DEFAULT_LIMITS.maxRequests, maxBytes: batch.maxBytes ?? DEFAULT_LIMITS.maxBytes },
    pollMs: batch.pollMs ?? 30_000,
  };
}

export interface BatchRowsContext {
  handle: RunHandleLike;
  pipeline: RowPipeline;
  /** A model call through the run's response cache, with `live` in place of the HTTP call. */
  callWith: (request: ModelRequest, repeat: number, live: () => Promise<ModelResponse>) => Promise<ModelResponse>;
  /** The rows × repeats still to run, a fresh pass per call (the dataset is streamed again). */
  items: () => AsyncIterable<{ row: DatasetRow; repeat: number }>;
  record: (row: RowResult) => Promise<void>;
  /** Rows whose earlier batch attempt failed (`--resume`): they are sent again. */
  retry: ReadonlySet<string>;
  concurrency: number;
  /** Stops dispatching and polling (Ctrl-C); the jobs keep running on the server. */
  dispatch: AbortSignal;
  /** Aborts rows in flight. */
  rowSignal: AbortSignal;
  emit: RunListener;
  settings: BatchSettings;
  env: NodeJS.ProcessEnv;
  configBaseURL: string | undefined;
  tools: Record<string, Tool>;
  prices: Record<string, ModelPrice>;
}

/** Thrown out of a row's call when its request went into a request file instead: the row waits for its job. */
class Deferred extends Error {}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * The rows of a `--batch` run. Rows answered by the cache (or by a job an earlier attempt made)
 * are processed at once; the others' requests are written to request files, submitted as jobs,
 * polled, and their answers then go through the very row pipeline a live call feeds (cache,
 * evals, results, reports). Returns false when interrupted while jobs were still running.
 */
export async function runBatchRows(context: BatchRowsContext): Promise<boolean> {
  const { handle } = context;
  const dir = join(handle.dir, 'batch');
  const envBase = context.env.OPENAI_BASE_URL?.trim() || undefined;
  const baseURL = envBase ?? context.configBaseURL ?? DEFAULT_BASE_URL;
  const bridge = new ProviderBridge({ baseURL, baseURLSet: envBase !== undefined || context.configBaseURL !== undefined, env: context.env, tools: context.tools, prices: context.prices });
  // Jobs an earlier attempt made live where it sent them, whatever the base URL is now.
  const client = new BatchClient({ baseURL: handle.manifest.batch?.baseURL ?? baseURL, apiKey: context.env.OPENAI_API_KEY?.trim() || undefined, signal: context.dispatch });
  const state: BatchManifest = handle.manifest.batch ?? { endpoint: '/v1/chat/completions', baseURL, jobs: [] };
  const jobsContext = (endpoint: BatchEndpoint): JobsContext => ({
    client,
    dir,
    runId: handle.id,
    endpoint,
    save: async () => {
      await handle.updateManifest({ batch: { ...state, jobs: state.jobs.map((job) => ({ ...job })) } });
    },
    progress: (jobs) => context.emit({ type: 'batch-progress', jobs: jobs.map((job) => ({ ...job })) }),
    pollMs: context.settings.pollMs,
    signal: context.dispatch,
  });

  const leftRunning = async (): Promise<false> => {
    await context.emit({
      type: 'warning',
      message: `the batch jobs keep running on the server: continue with --resume ${handle.id} (it picks up the same jobs, never submits them again), or cancel them with \`agentmark batches cancel ${handle.id}\``,
    });
    return false;
  };
  // Jobs an earlier attempt submitted are finished first: their answers are paid for.
  if (!(await finishJobs(state.jobs, jobsContext(state.endpoint)))) return leftRunning();

  const recorded = new Set<string>();
  const parts = new RequestParts(dir, context.settings.limits, state.jobs.length);
  let endpoint: BatchEndpoint | undefined;
  await processPass(context, bridge, recorded, await lookup(dir, state.jobs), async (item, request) => {
    const captured = await bridge.capture(request);
    endpoint ??= captured.endpoint;
    parts.add(JSON.stringify({ custom_id: customIdOf(item.row.index, item.repeat), method: 'POST', url: captured.endpoint, body: captured.body }));
    throw new Deferred();
  });
  const added = parts.finish();
  if (context.dispatch.aborted) return true;
  if (added.length === 0 || endpoint === undefined) return true;

  state.endpoint = endpoint;
  state.baseURL = client.baseURL;
  state.jobs.push(...added);
  const jobs = jobsContext(endpoint);
  await jobs.save();
  await jobs.progress(state.jobs);
  if (!(await finishJobs(added, jobs))) return leftRunning();
  await processPass({ ...context, retry: new Set() }, bridge, recorded, await lookup(dir, state.jobs), undefined);
  return true;

  async function lookup(folder: string, all: BatchJobRecord[]): Promise<Lookup> {
    return { answers: await readAnswers(folder, all), partOf: await requestPartOf(folder, all), jobs: all };
  }
}

/** Submits, polls and downloads; false when Ctrl-C came first (whatever request it cut short). */
async function finishJobs(jobs: BatchJobRecord[], context: JobsContext): Promise<boolean> {
  if (jobs.length === 0) return true;
  try {
    await submitJobs(jobs, context);
    if (!jobs.every(isFinal) && !(await pollJobs(jobs, context))) return false;
    await downloadResults(jobs, context);
    return true;
  } catch (error) {
    if (context.signal?.aborted) return false;
    throw error;
  }
}

interface Lookup {
  answers: Map<string, BatchAnswer>;
  partOf: Map<string, number>;
  jobs: BatchJobRecord[];
}

/**
 * One pass over the rows still to run. A row whose job answered is processed with that answer; one
 * whose job failed it (or expired, was cancelled, left it out) is an errored row saying why; any
 * other row (never sent, or sent again on resume) goes to `send` when given.
 */
async function processPass(
  context: BatchRowsContext,
  bridge: ProviderBridge,
  recorded: Set<string>,
  lookup: Lookup,
  send: ((item: { row: DatasetRow; repeat: number }, request: ModelRequest) => Promise<ModelResponse>) | undefined,
): Promise<void> {
  await runPool(
    context.items(),
    context.concurrency,
    async (item) => {
      const key = rowKey(item.row.index, item.repeat);
      if (recorded.has(key)) return;
      const id = customIdOf(item.row.index, item.repeat);
      let deferred = false;
      const pipeline: RowPipeline = {
        ...context.pipeline,
        call: (request, repeat) =>
          context.callWith(request, repeat, async () => {
            const answer = lookup.answers.get(id);
            const part = lookup.partOf.get(id);
            const job = part === undefined ? undefined : lookup.jobs[part];
            if (send !== undefined && (context.retry.has(key) || job === undefined)) {
              try {
                return await send(item, request);
              } catch (error) {
                // Only a request that went into a file waits for its job; one that could not (too large) is a row error.
                if (error instanceof Deferred) deferred = true;
                throw error;
              }
            }
            if (answer?.ok) return answerOf(context, bridge, request, answer.body);
            throw failureOf(id, job, answer, context.handle.id);
          }),
      };
      let result: RowResult;
      try {
        result = await processRow(pipeline, item.row, item.repeat, context.rowSignal);
      } catch (error) {
        if (error instanceof RowAborted) return;
        throw error;
      }
      if (deferred) return;
      recorded.add(key);
      await context.record(result);
    },
    context.dispatch,
  );
}

async function answerOf(context: BatchRowsContext, bridge: ProviderBridge, request: ModelRequest, body: unknown): Promise<ModelResponse> {
  const response = await bridge.answer(request, body);
  return { ...response, latencyMs: 0, retries: 0, batch: true, costUsd: batchCostOf(request.modelName, response.usage, context.prices) };
}

/** Why a row has no answer, from its error line or its job's end. */
function failureOf(id: string, job: BatchJobRecord | undefined, answer: BatchAnswer | undefined, runId: string): ModelCallError {
  const which = job?.batchId === undefined ? 'its batch job' : `batch job ${job.batchId}`;
  const hint = { hint: `continue with --resume ${runId} to send it again` };
  if (answer !== undefined && !answer.ok) {
    const expired = answer.code === 'batch_expired';
    const cancelled = answer.code === 'batch_cancelled';
    const code = expired ? 'MODEL_BATCH_EXPIRED' : cancelled ? 'MODEL_BATCH_CANCELLED' : 'MODEL_BATCH_ROW_FAILED';
    return new ModelCallError(code, `${which}: ${answer.reason}`, hint);
  }
  if (job === undefined) return new ModelCallError('MODEL_BATCH_NOT_SENT', `${id} was in no batch job`, hint);
  switch (job.status) {
    case 'expired':
      return new ModelCallError('MODEL_BATCH_EXPIRED', `${which} expired (24 h window) before this request ran`, hint);
    case 'cancelled':
      return new ModelCallError('MODEL_BATCH_CANCELLED', `${which} was cancelled before this request ran`, hint);
    case 'failed':
      return new ModelCallError('MODEL_BATCH_JOB_FAILED', `${which} failed${job.failure ? `: ${job.failure}` : ''}`, hint);
    default:
      return new ModelCallError('MODEL_BATCH_MISSING', `${which} ended ${job.status ?? 'unknown'} but its output has no answer for this request (partial output)`, hint);
  }
}
