import type { EvalSummary } from '../experiment/types.js';

/**
 * An eval's mean score as `0.90 (95% CI 0.70–1.00)`: the raw score's mean (not the normalised
 * one), with the interval computed in `src/scoring/` (clipped to the score's range). Undefined
 * when the eval gave no score.
 */
export function formatMean(summary: Pick<EvalSummary, 'meanScore' | 'meanScoreCi95'>): string | undefined {
  if (summary.meanScore === undefined) return undefined;
  const ci = summary.meanScoreCi95;
  return `${summary.meanScore.toFixed(2)}${ci ? ` (95% CI ${ci[0].toFixed(2)}–${ci[1].toFixed(2)})` : ''}`;
}
