import { RunStoreError } from './store-error.js';
import type { RunQuery } from './storage.js';
import type { RunManifest } from './types.js';

/** Whether a manifest is one of the runs a query asks for (the local back end filters with it). */
export function matchesQuery(manifest: RunManifest, query: RunQuery): boolean {
  if (query.idPrefix !== undefined && !manifest.id.startsWith(query.idPrefix)) return false;
  if (query.promptPath !== undefined && manifest.prompt.path !== query.promptPath) return false;
  if (query.branch !== undefined && manifest.git?.branch !== query.branch) return false;
  if (query.commit !== undefined && !(manifest.git?.commit ?? '').startsWith(query.commit)) return false;
  if (query.status !== undefined && manifest.status !== query.status) return false;
  return true;
}

/** Lines offered beyond the stored ones: what came between was lost, so the run would have a hole. */
export function gapError(id: string, from: number, stored: number): RunStoreError {
  return new RunStoreError('STORE_ROWS_GAP', `run ${id}: rows from line ${from + 1} were offered, but only ${stored} are stored`, {
    hint: 'the lines between were never stored: push the run again from its first row (`agentmark runs push`)',
  });
}
