import { join } from 'node:path';
import { RESULTS_FILE, type RunStorage } from '../store/index.js';
import { readViewIndexJson } from '../store/view-index-json.js';
import type { RunManifest } from '../store/types.js';

/**
 * The view index written with a whole copy in `dir`, kept in the store for the servers after this
 * one (which then read the run from there). Only an index of lines matching the run's integrity
 * record: a copy of edited rows has none to give. A store that cannot keep one is left as it is.
 */
export async function keepViewIndex(storage: RunStorage, dir: string, manifest: RunManifest): Promise<void> {
  const integrity = manifest.integrity;
  if (integrity === undefined || storage.putViewColumns === undefined) return;
  const text = await readViewIndexJson(dir, { resultsPath: join(dir, RESULTS_FILE), integrity });
  if (text !== undefined) await storage.putViewColumns(manifest.id, text, integrity).catch(() => undefined);
}
