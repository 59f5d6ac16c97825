import type { ScoredEval } from '../scoring/types.js';

/**
 * The AgentMark reading of one eval result: `PASS (0.90 - reason)` / `FAIL (0.00 - reason)`
 * when it has a verdict, else `score: x, label: y, reason: z` with the parts present.
 */
export function formatEvalCell(result: ScoredEval | undefined): string {
  // An eval other rows carry (their `evals`) is no eval of this row: nothing to show.
  if (result === undefined || result.absent) return '-';
  if (result.error !== undefined) return `ERROR: ${result.error}`;
  if (result.skipped) return result.reason ? `SKIP (${result.reason})` : 'SKIP';
  if (result.passed !== undefined) {
    const details: string[] = [];
    if (result.score !== undefined) details.push(result.score.toFixed(2));
    if (result.reason) details.push(result.reason);
    const verdict = result.passed ? 'PASS' : 'FAIL';
    return details.length > 0 ? `${verdict} (${details.join(' - ')})` : verdict;
  }
  const parts: string[] = [];
  if (result.score !== undefined) parts.push(`score: ${result.score}`);
  if (result.label !== undefined) parts.push(`label: ${result.label}`);
  if (result.reason) parts.push(`reason: ${result.reason}`);
  return parts.length > 0 ? parts.join(', ') : '-';
}
