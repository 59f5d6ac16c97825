/**
 * P(X ≤ k) for X ~ Binomial(m, ½), exact to double precision at any m. The terms C(m, i) / 2^m
 * rise up to i = m/2, so on the side we sum (k < m/2) the largest is the last: its log is
 * built from the term ratios (compensated sum, so m of a few hundred thousand neither
 * underflows 2^-m nor loses digits to ln Γ), then the terms are summed downward relative to it
 * until they no longer change the sum. No array of terms, so no `Math.max(...terms)`, whose
 * spread overflows the stack past ~120,000 values.
 */
export function binomialHalfCdf(k: number, m: number): number {
  if (k < 0) return 0;
  if (k >= m) return 1;
  if (m <= 1000) {
    // 2^-m is exact in a double down to 2^-1074, and so are the small sums: p = 0.5 stays 0.5.
    let term = 2 ** -m;
    let sum = 0;
    for (let i = 0; i <= k; i++) {
      sum += term;
      term *= (m - i) / (i + 1);
    }
    return Math.min(1, sum);
  }
  let log = -m * Math.LN2;
  let carry = 0;
  for (let i = 0; i < k; i++) {
    const y = Math.log((m - i) / (i + 1)) - carry;
    const t = log + y;
    carry = t - log - y;
    log = t;
  }
  let sum = 1;
  let term = 1;
  for (let i = k; i > 0; i--) {
    term *= i / (m - i + 1);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return Math.min(1, Math.exp(log + Math.log(sum)));
}

/**
 * McNemar's exact test on the discordant pairs of paired verdicts: under "no change", each of
 * the `regressed + improved` rows that changed is equally likely to have gone either way, so
 * the count of regressions is Binomial(regressed + improved, ½).
 * `pValue`: two-sided, min(1, 2·P(X ≤ min)). `pWorse`: one-sided, the chance of at least this
 * many regressions (small when head is worse). Both 1 when no row changed.
 */
export function mcnemarExact(regressed: number, improved: number): { pValue: number; pWorse: number } {
  const m = regressed + improved;
  if (m === 0) return { pValue: 1, pWorse: 1 };
  const low = Math.min(regressed, improved);
  const pValue = Math.min(1, 2 * cdfOrComplement(low, m));
  // P(X ≥ regressed) = P(X ≤ improved) by symmetry of Binomial(m, ½).
  const pWorse = cdfOrComplement(improved, m);
  return { pValue, pWorse };
}

/** P(X ≤ k), summing the shorter tail for accuracy. */
function cdfOrComplement(k: number, m: number): number {
  if (2 * k <= m) return binomialHalfCdf(k, m);
  return 1 - binomialHalfCdf(m - k - 1, m);
}
