/**
 * P(X ≤ k) for X ~ Binomial(m, ½), summed in log space from the term ratios, so m of a few
 * hundred thousand neither underflows (2^-m) nor loses digits to ln Γ.
 */
export function binomialHalfCdf(k: number, m: number): number {
  if (k < 0) return 0;
  if (k >= m) return 1;
  // ln of each term C(m, i) / 2^m, i = 0..k; the largest is the last (k < m/2 on the side we sum).
  const logs: number[] = [];
  let log = -m * Math.LN2;
  for (let i = 0; i <= k; i++) {
    logs.push(log);
    log += Math.log((m - i) / (i + 1));
  }
  const max = Math.max(...logs);
  let sum = 0;
  for (const value of logs) sum += Math.exp(value - max);
  return Math.min(1, Math.exp(max + Math.log(sum)));
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
