import type { LocalStorage } from '../local/local-storage.js';
import type { RunStorage } from '../storage.js';
import { copyRun, type CopyResult } from './copy-run.js';

/**
 * `runs pull`: copies the run into the local folder (copy-run.ts); a copy already there is hashed
 * against the run's integrity record, and one whose results were edited or cut since is repaired
 * from the source (checked first: a damaged source is refused with its own error, the copy left as
 * it is), its manifest, labels and view index kept.
 */
export async function pullRun(from: RunStorage, to: LocalStorage, id: string): Promise<CopyResult> {
  const result = await copyRun(from, to, id);
  if (!result.already) return result;
  const integrity = (await to.getRun(id))?.integrity;
  if (integrity === undefined || (await to.resultsMatch(id, integrity))) return result;
  await from.checkRun(id);
  await to.replaceResults(id, from.readLines(id), integrity);
  return { ...result, sent: integrity.rows, already: false, repaired: true };
}
