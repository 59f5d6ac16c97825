import type { ScoredEval } from './types.js';

/** The eval a weighted row (one with `threshold` or an eval `weight`) gets: its weighted score. */
export const ROW_SCORE = 'row_score';

/**
 * A row's weighted score, promptfoo's reading of a test case: the weighted mean of its evals'
 * normalised scores (a verdict without a score counts 1 when passed, 0 when not; an error
 * counts 0; a skipped eval and one of weight 0 count for nothing). With `threshold` it passes
 * when the mean reaches it; without one it is a score alone. The evals' own verdicts are not
 * changed: each eval's statistics stay its own.
 */
export function weightedRowScore(results: ReadonlyArray<{ name: string; result: ScoredEval; weight: number }>, threshold: number | undefined): ScoredEval {
  let sum = 0;
  let total = 0;
  const parts: string[] = [];
  for (const { name, result, weight } of results) {
    const value = valueOf(result);
    if (value === undefined || weight === 0) continue;
    sum += weight * value;
    total += weight;
    parts.push(weight === 1 ? `${name} ${round(value)}` : `${name} ${round(value)}×${weight}`);
  }
  if (total === 0) return { skipped: true, reason: 'no eval of this row gave a score with weight above 0' };
  const score = sum / total;
  const of = `weighted mean of ${parts.join(', ')}`;
  if (threshold === undefined) return { score, normalized: score, reason: of };
  const passed = score >= threshold;
  return { score, normalized: score, passed, reason: `${round(score)} ${passed ? '>=' : '<'} threshold ${threshold}: ${of}` };
}

function valueOf(result: ScoredEval): number | undefined {
  if (result.error !== undefined) return 0;
  if (result.skipped) return undefined;
  if (result.normalized !== undefined) return result.normalized;
  if (result.passed !== undefined) return result.passed ? 1 : 0;
  return undefined;
}

function round(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}
