import { relative } from 'node:path';
import { checkRowsInRange, filteredIndexes, LabelIndex, noRowsMatched, type RowFilter, type RowSelection } from '../dataset/index.js';
import type { JSONSchema7 } from '../prompt/json-schema.js';
import { checkDataset } from './check-dataset.js';
import type { RowCheck } from './check-verdicts.js';

/** Which rows a run takes, decided before any call. */
export interface RowPlan {
  /** Rows in the file. */
  datasetRows: number;
  /** Applied while streaming (the filter, when given, already applied it: then `all`). */
  selection: RowSelection;
  /** Only these indexes (the filter's choice, or watch mode's failed rows). */
  only?: ReadonlySet<number>;
}

export interface PlanRowsOptions {
  datasetPath: string;
  projectRoot: string;
  inputSchema: JSONSchema7 | undefined;
  selection?: RowSelection;
  filter?: RowFilter;
  onlyIndexes?: ReadonlySet<number>;
  signal?: AbortSignal;
  /** More checks of every row (a calibration set's labels against the score schemas). */
  checkRow?: RowCheck;
  /** The file's bytes as the check reads them (the run's fingerprint of the dataset: no read of its own). */
  onChunk?: (chunk: Buffer) => void;
}

/**
 * Checks the whole dataset (bad lines, duplicate row names) and works out the rows to run: the
 * name/tag filter first, then `--rows`/`--sample`/`--split` over what it kept. A filter that
 * keeps nothing is a usage error (exit 2) before any run folder exists.
 */
export async function planRows(options: PlanRowsOptions): Promise<RowPlan> {
  const file = relative(options.projectRoot, options.datasetPath);
  const labels = new LabelIndex(file, options.filter);
  const datasetRows = await checkDataset(options.datasetPath, options.inputSchema, options.signal, labels, options.checkRow, options.onChunk);
  const selection = options.selection ?? { kind: 'all' };
  checkRowsInRange(selection, datasetRows);
  if (!options.filter) return { datasetRows, selection, ...(options.onlyIndexes ? { only: options.onlyIndexes } : {}) };
  const chosen = filteredIndexes(labels.matched, selection);
  if (chosen.size === 0) throw noRowsMatched(options.filter, labels, file, labels.matched.length);
  const only = options.onlyIndexes ? new Set([...chosen].filter((index) => options.onlyIndexes?.has(index))) : chosen;
  return { datasetRows, selection: { kind: 'all' }, only };
}
