import { mulberry32 } from '../../dataset/random.js';
import { sampleBinomial } from './binomial-sample.js';

export interface BootstrapOptions {
  /** @default 10000 */
  resamples?: number;
  /** @default 0 */
  seed?: number;
  /** Two-sided level of the interval. @default 0.95 */
  level?: number;
}

/** Above this many distinct values, rows are drawn one by one instead of as counts. */
const MAX_CATEGORIES = 256;

/**
 * Percentile interval of the mean of paired differences over seeded bootstrap resamples
 * (pairs drawn with replacement, as many as there are). A resample of values that take k
 * distinct values is a multinomial draw of k counts, so it is drawn as k − 1 binomials rather
 * than n row picks: the same distribution, at a cost that does not grow with n (verdict
 * differences are −1, 0 or 1). Undefined for fewer than two pairs.
 */
export function bootstrapMeanInterval(differences: ArrayLike<number>, options: BootstrapOptions = {}): [number, number] | undefined {
  const n = differences.length;
  if (n < 2) return undefined;
  const resamples = options.resamples ?? 10_000;
  const random = mulberry32(options.seed ?? 0);
  const sorted = Float64Array.from(differences).sort();
  const values: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < n; i++) {
    const value = sorted[i] as number;
    if (values.length > 0 && values[values.length - 1] === value) counts[counts.length - 1] = (counts[counts.length - 1] as number) + 1;
    else {
      values.push(value);
      counts.push(1);
    }
  }
  const means = new Float64Array(resamples);
  if (values.length <= MAX_CATEGORIES) {
    for (let r = 0; r < resamples; r++) {
      let left = n;
      let weight = n;
      let sum = 0;
      for (let k = 0; k < values.length - 1 && left > 0; k++) {
        const count = counts[k] as number;
        const drawn = sampleBinomial(left, count / weight, random);
        sum += drawn * (values[k] as number);
        left -= drawn;
        weight -= count;
      }
      sum += left * (values[values.length - 1] as number);
      means[r] = sum / n;
    }
  } else {
    for (let r = 0; r < resamples; r++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += sorted[Math.floor(random() * n)] as number;
      means[r] = sum / n;
    }
  }
  means.sort();
  const tail = (1 - (options.level ?? 0.95)) / 2;
  return [quantile(means, tail), quantile(means, 1 - tail)];
}

/** Linear interpolation between order statistics (the usual "type 7" definition). */
function quantile(sorted: Float64Array, p: number): number {
  const h = (sorted.length - 1) * p;
  const low = Math.floor(h);
  const high = Math.min(sorted.length - 1, low + 1);
  return (sorted[low] as number) + (h - low) * ((sorted[high] as number) - (sorted[low] as number));
}
