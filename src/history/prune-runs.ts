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
 * Deletes run folders (never the response cache). A run still marked `running` that started
 * within the last day is kept whatever the options say: it may be writing right now.
 * Returns the runs removed (or, with `dryRun`, that would be).
 */
export async function pruneRuns(store: RunStore, options: PruneOptions): Promise<RunManifest[]> {
  const now = (options.now ?? Date.now)();
  const runs = await listRuns(store, options.prompt === undefined ? {} : { prompt: options.prompt });
  const doomed = runs.filter((run, position) => {
    const started = Date.parse(run.startedAt);
    if (run.status === 'running' && !(now - started > DAY_MS)) return false;
    if (options.keep !== undefined && position >= options.keep) return true;
    return options.olderThanDays !== undefined && now - started > options.olderThanDays * DAY_MS;
  });
  if (!options.dryRun) for (const run of doomed) await store.remove(run.id);
  return doomed;
}
