export { snapshotRun, type SnapshotSources } from './snapshot-run.js';
export { loadStoredPrompt, type StoredPromptOptions } from './stored-prompt.js';
