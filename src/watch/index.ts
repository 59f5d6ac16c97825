export { runWatchSession, type WatchRunSettings, type WatchSessionOptions } from './watch-session.js';
export { formatScreen, KEY_HELP, type ExperimentView, type ScreenState } from './format-screen.js';
export { DependencyGraph } from './dependency-graph.js';
export { ChangeBatcher, type ChangeBatch, type ChangeKind, type ChangeBatcherOptions } from './change-batcher.js';
export { RerunScheduler, type RerunRequest, type RerunTask } from './rerun-scheduler.js';
export { RunHistory, verdictOf, type RecordedRun } from './run-history.js';
export type { EvalLine, FlippedRow, RowErrorLine, RunReport, Verdict } from './run-report.js';
export { formatRunBlock, formatErrorBlock, formatSharedErrorBlock, blockMarker, type BlockOptions } from './format-block.js';
export { isPromptTarget, type WatchTargets } from './watch-targets.js';
