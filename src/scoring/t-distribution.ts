import { incompleteBeta } from './special-functions.js';

/** P(T ≤ t) for Student's t with `df` degrees of freedom. */
export function tCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** Quantiles already found, by p and df: every summary asks for t(0.975, n − 1) again. */
const known = new Map<string, number>();

/** The p-quantile of Student's t, by bisection on tCdf (to 1e-12 relative; see test/scoring/distributions.test.ts). */
export function tQuantile(p: number, df: number): number {
  if (p === 0.5) return 0;
  if (p < 0.5) return -tQuantile(1 - p, df);
  const key = `${p}:${df}`;
  const found = known.get(key);
  if (found !== undefined) return found;
  const value = bisect(p, df);
  if (known.size < 10_000) known.set(key, value);
  return value;
}

function bisect(p: number, df: number): number {
  let lo = 0;
  let hi = 1;
  while (tCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (tCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
