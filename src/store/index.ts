export { RunStore } from './run-store.js';
export { RunHandle, MANIFEST_FILE, RESULTS_FILE } from './run-handle.js';
export { createRunId, isValidRunId, type RunIdDeps } from './run-id.js';
export { rowKey } from './row-key.js';
export { RowKeySet } from './row-key-set.js';
export { gitInfo } from './git-info.js';
export { fileHasher, fingerprintFile } from './fingerprint.js';
export { BlobStore, textHash } from './blob-store.js';
export { RunStoreError } from './store-error.js';
export { ResultsHash, checkResults, type FoundResults } from './results-integrity.js';
export { isAbandoned, resumeCommandOf, unfinishedRunError, withLiveStatus } from './abandoned-run.js';
export { storeReadError, storeWriteError } from './write-error.js';
export { readLockHolder } from './run-lock.js';
export { RunLock, LOCK_FILE, type LockOwner, type LockDeps } from './run-lock.js';
export type {
  FileFingerprint,
  GitInfo,
  ManifestPatch,
  MergeRecord,
  RunHandleLike,
  RunManifest,
  RunOptions,
  RunProvenance,
  ResultsIntegrity,
  RunStatus,
  ShardRecord,
} from './types.js';
export type { OpenedRun } from './opened-run.js';
export { checkStoredResults, openRunFolder, parseRow as parseStoredRow, type StoredLine, type StoredRun } from './stored-run.js';
export { ViewIndexWriter, removeViewIndex } from './view-index-writer.js';
export { readViewIndex, type ViewIndexData, type ViewIndexExpectation } from './view-index-reader.js';
export { VIEW_INDEX_DIR } from './view-index-format.js';
export type { ChangeCursor, ChangedRun, RunQuery, RunStorage, StorageKind, StoreChanges } from './storage.js';
export { LocalStorage } from './local/local-storage.js';
export { openStorage, type StorageChoice } from './open-storage.js';
export { maskUrl } from './mask-url.js';
export { migrateStore, type MigrateResult } from './open-storage.js';
export { storeSetting, STORE_URL_ENV, type StoreSetting } from './store-config.js';
export { copyRun, COPY_BATCH, type CopyOptions, type CopyResult } from './transfer/copy-run.js';
export { pullRun } from './transfer/pull-run.js';
export { ABANDONED_AFTER_MS, HEARTBEAT_EVERY_MS } from './heartbeat.js';
