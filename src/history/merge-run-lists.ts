import type { RunManifest, RunStatus } from '../store/index.js';

/** Where a listed run is: only in this clone's `.agentmark/runs/`, only in the team store, or in both. */
export type RunPlace = 'local' | 'store' | 'both';

export interface PlacedRun {
  /** The local manifest when this clone has the run (its journal, never behind the store), else the store's. */
  manifest: RunManifest;
  where: RunPlace;
  /** The store copy's status when it differs from the local one (a push killed half-way stays `running` there). */
  storeStatus?: RunStatus;
}

/**
 * This clone's runs and the team store's, one entry a run id, newest first. Both lists come newest
 * first (run ids start with their UTC start time, and both back ends sort by id), so a merge keeps
 * the order; with `limit`, each list asked for `limit` runs holds every run of the merged first
 * `limit`.
 */
export function mergeRunLists(local: readonly RunManifest[], store: readonly RunManifest[], limit = Infinity): PlacedRun[] {
  const out: PlacedRun[] = [];
  let i = 0;
  let j = 0;
  while (out.length < limit && (i < local.length || j < store.length)) {
    const mine = local[i];
    const theirs = store[j];
    if (mine !== undefined && theirs !== undefined && mine.id === theirs.id) {
      out.push({ manifest: mine, where: 'both', ...(theirs.status === mine.status ? {} : { storeStatus: theirs.status }) });
      i += 1;
      j += 1;
    } else if (theirs === undefined || (mine !== undefined && mine.id > theirs.id)) {
      out.push({ manifest: mine as RunManifest, where: 'local' });
      i += 1;
    } else {
      out.push({ manifest: theirs, where: 'store' });
      j += 1;
    }
  }
  return out;
}
