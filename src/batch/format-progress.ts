import type { BatchJobRecord } from './types.js';

/** One line for the jobs' states: `2 jobs: in_progress 1 (40/100 done, 1 failed), completed 1 (50/50)`. */
export function formatBatchProgress(jobs: readonly BatchJobRecord[]): string {
  const byStatus = new Map<string, { jobs: number; done: number; failed: number; total: number }>();
  for (const job of jobs) {
    const status = job.status ?? (job.inputFileId === undefined ? 'not uploaded' : 'not created');
    const entry = byStatus.get(status) ?? { jobs: 0, done: 0, failed: 0, total: 0 };
    entry.jobs += 1;
    entry.total += job.counts?.total || job.requests;
    entry.done += job.counts?.completed ?? 0;
    entry.failed += job.counts?.failed ?? 0;
    byStatus.set(status, entry);
  }
  const parts = [...byStatus].map(([status, e]) => `${status} ${e.jobs} (${e.done}/${e.total} done${e.failed > 0 ? `, ${e.failed} failed` : ''})`);
  return `${jobs.length} batch job${jobs.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}
