export type { DatasetRow, RowSelection } from './types.js';
export { resolveDatasetPath } from './resolve-dataset-path.js';
export { readDataset, type ReadDatasetOptions } from './read-dataset.js';
export { countRows } from './count-rows.js';
export {
  parseRowsSpec,
  parseSampleSpec,
  parseSampleRowsSpec,
  parseLimitSpec,
  parseSeed,
  parseSplitSpec,
  parseRowSelection,
  type RowSelectionFlags,
} from './parse-selection.js';
export { selectRows, checkRowsInRange, percentOfRows, type SelectRowsOptions } from './select-rows.js';
export { readSelectedRows } from './read-selected-rows.js';
export { splitBucket } from './random.js';
export { MAX_ROW_DEPTH } from './json-depth.js';
