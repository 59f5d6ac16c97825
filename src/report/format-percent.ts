/** A ratio in [0, 1] as `66.7%`. */
export function formatPercent(ratio: number | undefined, digits = 1): string {
  if (ratio === undefined || !Number.isFinite(ratio)) return 'n/a';
  return `${(ratio * 100).toFixed(digits)}%`;
}
