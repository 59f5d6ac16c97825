export { runExperiment, type ExperimentOutcome } from './run-experiment.js';
export type { RunExperimentOptions, CacheMode } from './options.js';
export type { RunEvent, RunInfo, RunListener, RunStatus } from './events.js';
export type { RowResult, RunSummary, EvalSummary, GateResult, JudgeSpend } from './types.js';
export { runPool } from './pool.js';
export { listRows, type ListedRow, type RowListing } from './list-rows.js';
