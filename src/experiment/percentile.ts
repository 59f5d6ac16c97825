/** Nearest-rank percentile of unsorted numbers; undefined for none. */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  return sortedPercentile([...values].sort((a, b) => a - b), p);
}

/** Nearest-rank percentile of numbers sorted ascending; undefined for none. */
export function sortedPercentile(sorted: ArrayLike<number>, p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}
