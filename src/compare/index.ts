export { compareRuns, type CompareOptions, type RunSource } from './compare-runs.js';
export type * from './types.js';
