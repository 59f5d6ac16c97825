import { rowIdentity, rowVerdicts } from '../dataset/index.js';
import type { RowResult } from '../experiment/types.js';
import { DATASET_REVIEWER } from '../scoring/agreement/index.js';
import { rowKey, type RunManifest, type RunStore, type StoredRun } from '../store/index.js';
import { readAnnotations } from './annotations-file.js';
import { currentLabels } from './current-labels.js';
import { outputHash } from './output-hash.js';
import type { AnnotationLine, Label } from './types.js';

/** Where a run's labels come from: its own annotations, earlier runs' with the same output, its dataset. */
export interface RunLabels {
  /** Labels in force on one row of the run, own ones first. */
  labelsFor(row: RowResult): Label[];
  /** Label lines given in this run itself (after undo and replacement). */
  readonly own: number;
}

/**
 * Gathers the labels of a run. A label given in an earlier run of the same prompt follows its
 * row here while the row's output hash is unchanged, so a rerun with the same answer needs no
 * new review; this run's own label from the same reviewer wins over a carried one, and the
 * newest earlier run wins over older ones.
 */
export async function runLabels(run: StoredRun, store?: RunStore): Promise<RunLabels> {
  const own = new Map<string, Label[]>();
  const ownLines = currentLabels(await readAnnotations(run.dir));
  for (const line of ownLines.values()) push(own, rowKey(line.index, line.repeat), toLabel(line));
  const carried = store ? await carriedLabels(run.manifest, store) : new Map<string, Label[]>();
  return {
    own: ownLines.size,
    labelsFor(row) {
      const labels = [...(own.get(rowKey(row.index, row.repeat)) ?? [])];
      const taken = new Set(labels.map((label) => `${label.reviewer}\u0000${label.eval}`));
      if (carried.size > 0) {
        const key = `${rowIdentity(row)}\u0000${outputHash(row.output)}`;
        for (const label of carried.get(key) ?? []) {
          const slot = `${label.reviewer}\u0000${label.eval}`;
          if (taken.has(slot)) continue;
          taken.add(slot);
          labels.push(label);
        }
      }
      for (const [name, value] of Object.entries(rowVerdicts(row.metadata) ?? {})) {
        labels.push({ eval: name, value, reviewer: DATASET_REVIEWER, at: '', fromDataset: true });
      }
      return labels;
    },
  };
}

/** Labels of earlier runs of the same prompt, keyed by row identity and output hash, newest run first. */
async function carriedLabels(manifest: RunManifest, store: RunStore): Promise<Map<string, Label[]>> {
  const carried = new Map<string, Label[]>();
  const earlier = (await store.list()).filter(
    (other) => other.id !== manifest.id && other.prompt?.path === manifest.prompt?.path && other.startedAt <= manifest.startedAt,
  );
  const seen = new Set<string>();
  for (const other of earlier) {
    const lines = currentLabels(await readAnnotations(store.runDir(other.id)));
    for (const line of lines.values()) {
      const key = `${line.row}\u0000${line.outputHash}`;
      const slot = `${key}\u0000${line.reviewer}\u0000${line.eval}`;
      if (seen.has(slot)) continue;
      seen.add(slot);
      push(carried, key, { ...toLabel(line), carriedFrom: other.id });
    }
  }
  return carried;
}

function toLabel(line: AnnotationLine): Label {
  const label: Label = { eval: line.eval, value: line.value as Label['value'], reviewer: line.reviewer, at: line.at };
  if (line.note !== undefined) label.note = line.note;
  return label;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
