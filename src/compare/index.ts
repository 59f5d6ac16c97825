export { compareRuns, type CompareOptions, type RunSource } from './compare-runs.js';
export type * from './types.js';
export { promptDiffText, type PromptDiff, type PromptFileDiff } from './prompt-diff.js';
export { unifiedDiff } from './line-diff.js';
export { buildGrid, gridLabels, type GridOptions } from './grid.js';
export type * from './grid-types.js';
