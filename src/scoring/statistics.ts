import { tQuantile } from './t-distribution.js';

/** Numbers to summarise: a JS array, or the typed array a long run keeps them in. */
export type Numbers = readonly number[] | Float64Array;

/** z for a two-sided 95% interval: Φ⁻¹(0.975) to double precision (scipy's `norm.ppf(0.975)`), not the rounded 1.96. */
export const Z95 = 1.959963984540054;

/**
 * Wilson score interval for a proportion. Unlike p ± z·√(p(1-p)/n) it stays inside [0, 1] and
 * is not zero-width at 0 or n successes, which matters for small eval sets.
 * Undefined when n is 0.
 */
export function wilsonInterval(successes: number, n: number, z = Z95): [number, number] | undefined {
  if (n <= 0) return undefined;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return [Math.max(0, center - half), Math.min(1, center + half)];
}

export function mean(values: Numbers): number | undefined {
  if (values.length === 0) return undefined;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/** Sample standard deviation (n - 1); undefined below two values. */
export function sampleStdDev(values: Numbers): number | undefined {
  if (values.length < 2) return undefined;
  const m = mean(values) ?? 0;
  let squares = 0;
  for (const value of values) squares += (value - m) ** 2;
  return Math.sqrt(squares / (values.length - 1));
}

export interface MeanStats {
  mean: number;
  /** sd / √n with the sample sd; only with n >= 2. */
  stdErr?: number;
  /** mean ± t(0.975, n − 1)·SE, clipped to the score's range when one is given; only with n >= 2. */
  ci95?: [number, number];
}

/** The lowest and highest score an eval can give (see `scoreRange`). */
export type ScoreRange = readonly [low: number, high: number];

/**
 * Mean with Student's t 95% interval (n − 1 degrees of freedom): with 1.96 instead, an interval
 * over 2, 3 or 5 values covers the truth 67%, 79% or 87% of the time, not 95%.
 *
 * Bounded by clipping: with `range`, the interval is cut to [low, high], widened to take in
 * any value outside it (a boolean scorer may return its own score). Near a bound the normal
 * interval reaches past it (9 passes of 10: 0.9 ± 0.196), and a mean can never be there; a
 * transformed interval (logit, Wilson-style) would move the centre too, and the mean ± SE shown
 * next to it would no longer agree with it.
 */
export function meanStats(values: Numbers, range?: ScoreRange): MeanStats | undefined {
  const m = mean(values);
  if (m === undefined) return undefined;
  const sd = sampleStdDev(values);
  if (sd === undefined) return { mean: m };
  const stdErr = sd / Math.sqrt(values.length);
  const half = tQuantile(0.975, values.length - 1) * stdErr;
  let low = m - half;
  let high = m + half;
  if (range) {
    let [floor, ceiling] = range;
    for (const value of values) {
      if (value < floor) floor = value;
      if (value > ceiling) ceiling = value;
    }
    low = Math.max(floor, low);
    high = Math.min(ceiling, high);
  }
  return { mean: m, stdErr, ci95: [low, high] };
}

export interface Spread {
  min: number;
  median: number;
  max: number;
}

/** Min, median (mean of the middle two for an even count) and max; sorts a copy. */
export function spread(values: Numbers): Spread | undefined {
  if (values.length === 0) return undefined;
  // A typed array sorts numerically without a comparator (a million scores: ~0.1 s, not ~1 s).
  const sorted = values instanceof Float64Array ? Float64Array.from(values).sort() : [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return { min: sorted[0] as number, median, max: sorted[sorted.length - 1] as number };
}
