import type { RunManifest, RunStore } from '../store/index.js';
import { listRuns } from './list-runs.js';

export interface PruneOptions {
  /** Keep the newest n runs (of the prompt, when given); older ones go. */
  keep?: number;
  /** Runs started more than this many days ago go. */
  olderThanDays?: number;
  /** Only runs of this prompt (path relative to the project root). */
  prompt?: string;
  /** List what would go; delete nothing. @default false */
  dryRun?: boolean;
  /** @default Date.now */
  now?: () => number;
}

const DAY_MS = 86_400_000;

/**
 * Deletes run folders (never the response cache). A run that is being written (its lock has a
 * live holder: `list` shows it `running`) is kept whatever the options say and whatever its age:
 * a `--batch` run may poll for a day and more. One whose writer is gone shows as `interrupted`
 * and goes like any other. Returns the runs removed (or, with `dryRun`, that would be).
 */
export async function pruneRuns(store: RunStore, options: PruneOptions): Promise<RunManifest[]> {
  const now = (options.now ?? Date.now)();
  const runs = await listRuns(store, options.prompt === undefined ? {} : { prompt: options.prompt });
  const doomed = runs.filter((run, position) => {
    if (run.status === 'running') return false;
    const started = Date.parse(run.startedAt);
    if (options.keep !== undefined && position >= options.keep) return true;
    return options.olderThanDays !== undefined && now - started > options.olderThanDays * DAY_MS;
  });
  if (options.dryRun) return doomed;
  const removed: RunManifest[] = [];
  for (const run of doomed) {
    try {
      await store.remove(run.id);
      removed.push(run);
    } catch (error) {
      // Resumed since it was listed: it is being written again.
      if ((error as { code?: unknown }).code !== 'STORE_RUN_LOCKED') throw error;
    }
  }
  return removed;
}
