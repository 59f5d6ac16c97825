export { runBatchRows } from './run-batch.js';
export { batchSettingsOf, type BatchRowsContext, type BatchSettings } from './batch-rows-context.js';
export { checkBatchable, type BatchableFacts } from './check-batchable.js';
export { BatchClient, type BatchClientOptions } from './batch-client.js';
export { batchCostOf } from './batch-price.js';
export { formatBatchProgress } from './format-progress.js';
export { DEFAULT_LIMITS, type BatchLimits } from './request-parts.js';
export { apply as applyBatchObject, isFinal } from './batch-jobs.js';
export type { BatchEndpoint, BatchJobRecord, BatchManifest, BatchObject, BatchStatus } from './types.js';
