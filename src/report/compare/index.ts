export { formatCompareTable, type CompareTableOptions } from './format-compare-table.js';
export { formatCompareMarkdown } from './format-compare-markdown.js';
export { wordDiff } from './word-diff.js';
export { formatSideBySide, type SideBySideRun } from './format-side-by-side.js';
export { formatGridTable, formatGridMarkdown, type GridTableOptions } from './format-grid.js';
