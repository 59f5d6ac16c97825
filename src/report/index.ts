export { reporters, reporterNames, isReporterName } from './reporters.js';
export { createTableReporter } from './table-reporter.js';
export { createJsonReporter, writeJson } from './json-reporter.js';
export { createJsonlReporter } from './jsonl-reporter.js';
export { createCsvReporter, writeCsv } from './csv-reporter.js';
export { createJunitReporter, writeJunit } from './junit-reporter.js';
export {
  createProgressReporter,
  type ProgressOptions,
  type ProgressReporter,
  type ProgressStream,
} from './progress-reporter.js';
export { combineReporters } from './combine-reporters.js';
export { formatSummary } from './format-summary.js';
export { formatEvalCell } from './format-eval-cell.js';
export { renderTable } from './render-table.js';
export { truncate } from './truncate.js';
export { csvEscape } from './csv-escape.js';
export { xmlEscape } from './xml-escape.js';
export { formatDuration } from './format-duration.js';
export { formatCost } from './format-cost.js';
export { formatPercent } from './format-percent.js';
export type { FinishedRun, OutputStream, Reporter, ReporterFactory, ReporterName, ReporterOptions, RunInfo } from './types.js';
export { formatRunList, runListEntry, type RunListEntry } from './format-run-list.js';
export { formatRowList } from './format-row-list.js';
export { reportRow, type ReportRow, type ReportEval } from './report-row.js';
