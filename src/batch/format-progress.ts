import type { BatchJobRecord } from './types.js';

/**
 * One line for the jobs' states: `2 batch jobs: in_progress 1 (40/100 done, 1 failed), completed 1 (50/50)`,
 * judge jobs after the model jobs: `...; 1 judge batch job: validating 1 (0/50 done)`.
 */
export function formatBatchProgress(jobs: readonly BatchJobRecord[]): string {
  const model = jobs.filter((job) => job.kind !== 'judge');
  const judge = jobs.filter((job) => job.kind === 'judge');
  return [model.length > 0 || judge.length === 0 ? formatJobs(model, 'batch job') : undefined, judge.length > 0 ? formatJobs(judge, 'judge batch job') : undefined]
    .filter((part) => part !== undefined)
    .join('; ');
}

function formatJobs(jobs: readonly BatchJobRecord[], noun: string): string {
  const byStatus = new Map<string, { jobs: number; done: number; failed: number; total: number }>();
  for (const job of jobs) {
    // An Anthropic job (its requests post to /v1/messages) has no file to upload.
    const status = job.status ?? (job.inputFileId === undefined && job.endpoint !== '/v1/messages' ? 'not uploaded' : 'not created');
    const entry = byStatus.get(status) ?? { jobs: 0, done: 0, failed: 0, total: 0 };
    entry.jobs += 1;
    entry.total += job.counts?.total || job.requests;
    entry.done += job.counts?.completed ?? 0;
    entry.failed += job.counts?.failed ?? 0;
    byStatus.set(status, entry);
  }
  const parts = [...byStatus].map(([status, e]) => `${status} ${e.jobs} (${e.done}/${e.total} done${e.failed > 0 ? `, ${e.failed} failed` : ''})`);
  return `${jobs.length} ${noun}${jobs.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}
