import type { RowIndex } from './api-types.js';

/** An index with no rows yet. */
export function emptyColumns(evalNames: readonly string[]): RowIndex {
  return { evalNames: [...evalNames], index: [], repeat: [], flags: [], latencyMs: [], costUsd: [], verdicts: '', scores: evalNames.map(() => []), labels: evalNames.map(() => []) };
}
