import { betaQuantile } from './beta-quantile.js';

/**
 * The Clopper-Pearson ("exact") 95% interval for a proportion: the θ for which `successes` out
 * of `n` is not in either 2.5% tail of Binomial(n, θ), written with beta quantiles
 * (Clopper & Pearson 1934). Its coverage is at least 95% at every n and θ; Wilson's dips to
 * 90% at n = 5 or 10 near the bounds (2% pass rate at 5 rows: 90.4%), which is where a small
 * eval set is. `successes` and `n` may be fractional: an effective sample size (Korn &
 * Graubard 1998) is one. Undefined when n is not positive.
 */
export function clopperPearsonInterval(successes: number, n: number, level = 0.95): [number, number] | undefined {
  if (!(n > 0)) return undefined;
  const x = Math.min(n, Math.max(0, successes));
  const tail = (1 - level) / 2;
  const low = x <= 0 ? 0 : betaQuantile(tail, x, n - x + 1);
  const high = x >= n ? 1 : betaQuantile(1 - tail, x + 1, n - x);
  return [low, high];
}
