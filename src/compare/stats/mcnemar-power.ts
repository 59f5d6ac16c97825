import { incompleteBeta, lnGamma } from '../../scoring/special-functions.js';

/** Critical counts by α: `critical(α)[d]` is the fewest regressions of d discordant rows the one-sided exact test calls significant. */
const criticalByAlpha = new Map<number, number[]>();

/** P(X ≥ r) for X ~ Binomial(d, p), as I_p(r, d − r + 1). */
function upperTail(r: number, d: number, p: number): number {
  if (r <= 0) return 1;
  if (r > d) return 0;
  if (p >= 1) return 1;
  return incompleteBeta(p, r, d - r + 1);
}

/**
 * The smallest r with P(X ≥ r | Binomial(d, ½)) ≤ α (d + 1 when none: the exact one-sided
 * McNemar test cannot fire with d discordant rows). Kept per α, since every power sum asks for
 * the same d's again.
 */
function criticalCount(d: number, alpha: number): number {
  let table = criticalByAlpha.get(alpha);
  if (!table) {
    if (criticalByAlpha.size > 16) criticalByAlpha.clear();
    criticalByAlpha.set(alpha, (table = []));
  }
  const known = table[d];
  if (known !== undefined) return known;
  // Non-decreasing in d and within one of the previous d's: start there.
  let r = d > 0 && table[d - 1] !== undefined ? (table[d - 1] as number) : Math.ceil(d / 2);
  while (r > 0 && upperTail(r - 1, d, 0.5) <= alpha) r--;
  while (r <= d && upperTail(r, d, 0.5) > alpha) r++;
  if (d < 1_000_000) table[d] = r;
  return r;
}

/**
 * The power of McNemar's exact one-sided test at level α to find a paired drop δ in pass rate
 * over n pairs, when a share ψ of the pairs is discordant: the discordant count D is
 * Binomial(n, ψ), and of d discordant rows the regressions are Binomial(d, (ψ + δ)/(2ψ)); the
 * power is Σ P(D = d) · P(regressions ≥ critical(d)). A drop larger than ψ needs that many
 * discordant rows at least, so ψ is taken as max(ψ, δ). The sum runs over d within 9 standard
 * deviations of nψ (the rest weighs below 1e-18).
 */
export function mcnemarPower(n: number, psi: number, delta: number, alpha: number): number {
  const share = Math.max(psi, delta);
  if (!(share > 0) || n <= 0) return 0;
  const q = Math.min(1, (share + delta) / (2 * share));
  if (share >= 1) return upperTail(criticalCount(n, alpha), n, q);
  const mean = n * share;
  const sd = Math.sqrt(n * share * (1 - share));
  const from = Math.max(0, Math.floor(mean - 9 * sd - 1));
  const to = Math.min(n, Math.ceil(mean + 9 * sd + 1));
  // P(D = d) from its value at `from` by the ratio of successive terms (one ln Γ, not three a term).
  const odds = share / (1 - share);
  let pmf = Math.exp(lnGamma(n + 1) - lnGamma(from + 1) - lnGamma(n - from + 1) + from * Math.log(share) + (n - from) * Math.log1p(-share));
  let power = 0;
  for (let d = from; d <= to; d++) {
    const c = criticalCount(d, alpha);
    if (c <= d && pmf > 1e-18) power += pmf * upperTail(c, d, q);
    pmf *= ((n - d) / (d + 1)) * odds;
  }
  return Math.min(1, power);
}
