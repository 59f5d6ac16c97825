export { LOCAL_RUN_REF_FORMS, resolveRunRef, RUN_REF_FORMS, type RunRefContext } from './resolve-run-ref.js';
export { listRuns, type ListRunsOptions } from './list-runs.js';
export { pruneRuns, type PruneOptions } from './prune-runs.js';
export { resolveGitCommit } from './git-commit.js';
export { resolveStoreRef, STORE_REF_FORMS } from './resolve-store-ref.js';
export { mergeRunLists, type PlacedRun, type RunPlace } from './merge-run-lists.js';
