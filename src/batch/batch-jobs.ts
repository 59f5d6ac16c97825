import { sleep } from '../model/backoff.js';
import type { BatchApi } from './batch-client.js';
import { outputFile } from './batch-answers.js';
import { FINAL_STATUSES, type BatchEndpoint, type BatchJobRecord, type BatchObject } from './types.js';

export interface JobsContext {
  client: BatchApi;
  /** The run folder's `batch/`. */
  dir: string;
  runId: string;
  endpoint: BatchEndpoint;
  /** Writes the jobs' records to the manifest; awaited after every change that must survive a kill. */
  save: () => Promise<void>;
  /** Told the jobs' states whenever one changes. */
  progress: (jobs: readonly BatchJobRecord[]) => void | Promise<void>;
  /** First wait between polls; grows ×1.5 while nothing changes, up to 10×. */
  pollMs: number;
  signal?: AbortSignal;
}

export function isFinal(job: BatchJobRecord): boolean {
  return job.status !== undefined && FINAL_STATUSES.has(job.status);
}

/**
 * Submits the jobs not yet created. Each id is saved before the next step, so a kill at any
 * point is continued without a second submission: the client finds a job a killed attempt
 * created but never recorded (OpenAI: by its uploaded input file; Anthropic: see its client)
 * before it creates one.
 */
export async function submitJobs(jobs: BatchJobRecord[], context: JobsContext): Promise<void> {
  for (const job of jobs) {
    if (job.batchId !== undefined) continue;
    const taken = new Set(jobs.flatMap((other) => (other.batchId === undefined ? [] : [other.batchId])));
    apply(job, await context.client.submit(job, { ...context, taken }));
    await context.save();
    await context.progress(jobs);
  }
}

/** Polls until every job is final, with backoff; false when the signal stopped it first. */
export async function pollJobs(jobs: BatchJobRecord[], context: JobsContext): Promise<boolean> {
  let wait = context.pollMs;
  let first = true;
  for (;;) {
    let changed = first;
    first = false;
    for (const job of jobs) {
      if (job.batchId === undefined || isFinal(job)) continue;
      if (context.signal?.aborted) return false;
      if (apply(job, await context.client.retrieve(job.batchId))) changed = true;
    }
    if (changed) {
      await context.save();
      await context.progress(jobs);
      wait = context.pollMs;
    } else {
      wait = Math.min(wait * 1.5, context.pollMs * 10);
    }
    if (jobs.every(isFinal)) return true;
    try {
      await sleep(wait, context.signal);
    } catch {
      return false;
    }
  }
}

/** Saves each final job's output and error files in the run folder (once). */
export async function downloadResults(jobs: BatchJobRecord[], context: JobsContext): Promise<void> {
  for (const job of jobs) {
    if (!isFinal(job) || job.downloaded) continue;
    if (job.outputFileId) await context.client.download(job.outputFileId, outputFile(context.dir, job.part, 'output'));
    if (job.errorFileId) await context.client.download(job.errorFileId, outputFile(context.dir, job.part, 'errors'));
    job.downloaded = true;
    await context.save();
  }
}

/** Copies what the server says into the record; true when anything shown changed. */
export function apply(job: BatchJobRecord, batch: BatchObject): boolean {
  const before = JSON.stringify([job.status, job.counts]);
  job.batchId = batch.id;
  job.status = batch.status;
  if (batch.request_counts) job.counts = { ...batch.request_counts };
  if (batch.output_file_id) job.outputFileId = batch.output_file_id;
  if (batch.error_file_id) job.errorFileId = batch.error_file_id;
  const failure = batch.errors?.data?.map((e) => `${e.line == null ? '' : `line ${e.line}: `}${e.message ?? e.code ?? ''}`).join('; ');
  if (failure) job.failure = failure;
  return JSON.stringify([job.status, job.counts]) !== before;
}
