import type { RowResult } from '../experiment/types.js';
import type { ScoredEval } from '../scoring/types.js';
import { ROW_CACHED, ROW_ERRORED, ROW_FAILED, type IndexEntry, type VerdictChar } from './api-types.js';

function verdictOf(result: ScoredEval | undefined): VerdictChar {
  if (result === undefined) return '-';
  if (result.error !== undefined) return 'E';
  if (result.skipped) return 'S';
  if (result.passed === true) return 'P';
  if (result.passed === false) return 'F';
  return '-';
}

/**
 * A row as the numbers the rows table filters and sorts on. "Failed" means what the runner's
 * gate means by it: the row errored, or an eval errored or did not pass.
 */
export function indexEntry(row: RowResult, evalNames: readonly string[]): IndexEntry {
  let verdicts = '';
  const scores: Array<number | null> = [];
  const labels: Array<string | null> = [];
  for (const name of evalNames) {
    const result = row.evals[name];
    verdicts += verdictOf(result);
    scores.push(result?.score ?? null);
    labels.push(result?.label ?? null);
  }
  let flags = 0;
  if (row.error !== undefined) flags |= ROW_ERRORED | ROW_FAILED;
  if (verdicts.includes('F') || verdicts.includes('E')) flags |= ROW_FAILED;
  if (row.cached) flags |= ROW_CACHED;
  // Most evals carry no label: an empty list instead of one null per eval keeps a 100,000-row
  // index a megabyte smaller.
  return [row.index, row.repeat, flags, row.latencyMs ?? null, row.costUsd ?? null, verdicts, scores, labels.some((l) => l !== null) ? labels : []];
}
