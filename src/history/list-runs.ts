import type { RunManifest, RunStore } from '../store/index.js';

export interface ListRunsOptions {
  /** Only runs of this prompt: its path relative to the project root, with `/`. */
  prompt?: string;
  /** At most this many runs. @default all */
  limit?: number;
  /** Only runs that ended normally (`completed`), as `latest` and `@ref` need. @default false */
  finishedOnly?: boolean;
}

/** Past runs, newest first (run ids start with their UTC start time). */
export async function listRuns(store: RunStore, options: ListRunsOptions = {}): Promise<RunManifest[]> {
  const limit = options.limit ?? Infinity;
  const all = await store.list();
  const out: RunManifest[] = [];
  for (const manifest of all) {
    if (out.length >= limit) break;
    if (options.prompt !== undefined && manifest.prompt?.path !== options.prompt) continue;
    if (options.finishedOnly && manifest.status !== 'completed') continue;
    out.push(manifest);
  }
  return out;
}
