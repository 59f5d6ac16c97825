export type { DatasetRow, RowSelection } from './types.js';
export { resolveDatasetPath } from './resolve-dataset-path.js';
export { readDataset, readDatasetBatches, type ReadDatasetOptions } from './read-dataset.js';
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
export { rowIdentity, type RowContent } from './row-identity.js';
export { parseRowFilter, matchesFilter, type RowFilter } from './row-filter.js';
export { rowLabels, type RowLabels } from './row-labels.js';
export { LabelIndex } from './label-index.js';
export { filteredIndexes, noRowsMatched } from './filtered-selection.js';
export { readRowTimeout } from './row-timeout.js';
export { readRowVerdicts, rowVerdicts, type Verdict } from './row-verdicts.js';
export { readRowEvals, rowEvals, type RowEvalSpec, type RowEvals } from './row-evals.js';
export { locateRowField } from './locate-row-field.js';
