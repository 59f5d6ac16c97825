/**
 * Holm's step-down adjustment of p-values for testing several evals at once: the i-th smallest
 * of m is multiplied by (m − i + 1), then made monotone. Controls the chance of any false
 * "significant" across all evals at α, without assuming the evals are independent.
 * Returns adjusted values in the input order.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((_, i) => i).sort((a, b) => (pValues[a] as number) - (pValues[b] as number));
  const adjusted = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * (pValues[index] as number)));
    adjusted[index] = running;
  });
  return adjusted;
}
