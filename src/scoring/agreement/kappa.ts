/** How far apart two categories count: nominal (all disagreements alike) or ordered. */
export type KappaWeights = 'none' | 'linear' | 'quadratic';

/**
 * Cohen's kappa of a k×k matrix of counts (Cohen 1960), weighted for ordered categories
 * (Cohen 1968): κ = 1 − Σ w·observed / Σ w·expected, with w = 0 on the diagonal and, off it,
 * 1 (none), |i−j|/(k−1) (linear) or ((i−j)/(k−1))² (quadratic). With no weights this is the
 * familiar (pₒ − pₑ)/(1 − pₑ). Undefined when chance agreement is already perfect (both raters
 * used one and the same category), where kappa is 0/0, and for an empty matrix.
 */
export function kappa(counts: readonly (readonly number[])[], weights: KappaWeights = 'none'): number | undefined {
  const k = counts.length;
  let n = 0;
  const rows = new Array<number>(k).fill(0);
  const columns = new Array<number>(k).fill(0);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const count = counts[i]?.[j] ?? 0;
      n += count;
      rows[i] = (rows[i] as number) + count;
      columns[j] = (columns[j] as number) + count;
    }
  }
  if (n === 0) return undefined;
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const w = weightOf(i, j, k, weights);
      if (w === 0) continue;
      observed += (w * (counts[i]?.[j] ?? 0)) / n;
      expected += (w * (rows[i] as number) * (columns[j] as number)) / (n * n);
    }
  }
  if (expected === 0) return undefined;
  return 1 - observed / expected;
}

function weightOf(i: number, j: number, k: number, weights: KappaWeights): number {
  if (i === j) return 0;
  if (weights === 'none' || k < 2) return 1;
  const distance = Math.abs(i - j) / (k - 1);
  return weights === 'linear' ? distance : distance * distance;
}

/** Share of items on the diagonal; undefined for an empty matrix. */
export function percentAgreement(counts: readonly (readonly number[])[]): number | undefined {
  let n = 0;
  let same = 0;
  counts.forEach((row, i) =>
    row.forEach((count, j) => {
      n += count;
      if (i === j) same += count;
    }),
  );
  return n === 0 ? undefined : same / n;
}
