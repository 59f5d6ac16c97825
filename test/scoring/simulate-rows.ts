/**
 * Seeded draws for the coverage simulations. A row's passes in m repeats, when its pass
 * probability follows a beta with mean `rate` and intra-row correlation ρ (a + b = (1 − ρ)/ρ),
 * are beta-binomial: the counts are drawn from that distribution directly, one uniform a row,
 * by inverting its cumulative probabilities. Test-only; deterministic for a seed.
 */
export type Random = () => number;

/**
 * P(passes ≤ y) for y = 0..m, beta-binomial(m, a, b) with a = rate·s, b = (1 − rate)·s,
 * s = (1 − icc)/icc, from the product form C(m, y)·Π(a + j)·Π(b + j)/Π(a + b + j);
 * icc = 0 is the binomial (every row at `rate`).
 */
export function passCountCdf(repeats: number, rate: number, icc: number): Float64Array {
  const pmf = new Float64Array(repeats + 1);
  for (let y = 0; y <= repeats; y++) {
    let term = 1;
    for (let j = 0; j < y; j++) term *= (repeats - j) / (j + 1);
    if (icc === 0) {
      term *= rate ** y * (1 - rate) ** (repeats - y);
    } else {
      const size = (1 - icc) / icc;
      const a = rate * size;
      const b = (1 - rate) * size;
      for (let j = 0; j < y; j++) term *= (a + j) / (size + j);
      for (let j = 0; j < repeats - y; j++) term *= (b + j) / (size + y + j);
    }
    pmf[y] = term;
  }
  const cdf = new Float64Array(repeats + 1);
  let sum = 0;
  for (let y = 0; y <= repeats; y++) cdf[y] = sum += pmf[y] as number;
  return cdf;
}

/** A row's pass count drawn by inversion of `cdf`. */
export function drawCount(random: Random, cdf: Float64Array): number {
  const u = random() * (cdf[cdf.length - 1] as number);
  let y = 0;
  while (y < cdf.length - 1 && u >= (cdf[y] as number)) y++;
  return y;
}
