import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunStore, StoredRun } from '../store/index.js';
import { ANNOTATIONS_FILE } from './annotations-file.js';

/**
 * False when a run cannot have a label, known without reading its rows: it has a summary with no
 * agreement (so its dataset carries no `labels`), and neither it nor an earlier run of its prompt
 * has an annotation file.
 */
export async function mayHaveLabels(run: StoredRun, store?: RunStore): Promise<boolean> {
  const summary = run.manifest.summary;
  if (!summary || summary.agreement) return true;
  const exists = (dir: string): Promise<boolean> => access(join(dir, ANNOTATIONS_FILE)).then(() => true, () => false);
  if (await exists(run.dir)) return true;
  if (!store) return false;
  for (const other of await store.list()) {
    if (other.id !== run.manifest.id && other.prompt?.path === run.manifest.prompt?.path && other.startedAt <= run.manifest.startedAt && (await exists(store.runDir(other.id)))) return true;
  }
  return false;
}
