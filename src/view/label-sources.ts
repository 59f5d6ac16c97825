import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ANNOTATIONS_FILE } from '../review/index.js';
import type { RunManifest } from '../store/index.js';
import type { RunCatalog } from './run-catalog.js';

/**
 * Where a run's labels can come from, as one string that changes whenever they may have: the
 * annotation files of the run and of the earlier runs of its prompt (labels carry over), and its
 * rows while it is running. Undefined when the run can have no label at all: finished, no
 * annotation file anywhere, and no dataset `labels` (its summary then has no agreement). Then no
 * row needs reading, which keeps a large unlabelled run as quick to open as before.
 */
export async function labelSources(catalog: RunCatalog, manifest: RunManifest, rowCount: number): Promise<string | undefined> {
  const runs = (await catalog.store.list()).filter((other) => other.prompt?.path === manifest.prompt?.path && other.startedAt <= manifest.startedAt);
  if (!runs.some((other) => other.id === manifest.id)) runs.push(manifest);
  const parts: string[] = [];
  for (const run of runs) {
    try {
      const info = await stat(join(catalog.store.runDir(run.id), ANNOTATIONS_FILE));
      parts.push(`${run.id}:${info.size}:${info.mtimeMs}`);
    } catch {
      // no labels given in that run
    }
  }
  if (parts.length === 0 && manifest.summary && !manifest.summary.agreement) return undefined;
  return `${rowCount}|${manifest.status}|${parts.join(',')}`;
}

/** Answers kept per run while their label sources are unchanged. */
export class LabelCache<T> {
  readonly #kept = new Map<string, { version: string; value: Promise<T> }>();

  get(id: string, version: string, make: () => Promise<T>): Promise<T> {
    const kept = this.#kept.get(id);
    if (kept?.version === version) return kept.value;
    const value = make();
    this.#kept.set(id, { version, value });
    value.catch(() => this.#kept.delete(id));
    return value;
  }
}
