import { readDataset, type ReadDatasetOptions } from './read-dataset.js';
import { selectRows } from './select-rows.js';
import type { DatasetRow, RowSelection } from './types.js';

/**
 * `readDataset` plus `selectRows`, counting the rows first when the selection needs the total
 * (`sample`, and `rows` so an out-of-range index fails before any row runs).
 */
export function readSelectedRows(
  file: string,
  selection: RowSelection,
  options: ReadDatasetOptions = {},
): AsyncGenerator<DatasetRow, void, undefined> {
  const { signal } = options;
  return selectRows(readDataset(file, options), selection, signal ? { path: file, signal } : { path: file });
}
