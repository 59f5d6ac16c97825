import { mulberry32 } from '../../dataset/random.js';

export interface RowBootstrapOptions {
  /** @default 2000 */
  resamples?: number;
  /** @default 0 */
  seed?: number;
}

/**
 * 95% percentile interval of `statistic` over seeded bootstrap resamples of the items (rows,
 * drawn with replacement, as many as there are), so an interval reflects which rows happened to
 * be reviewed. Resamples where the statistic is undefined (all one category) are left out; when
 * fewer than half are defined, or there are under two items, there is no interval.
 */
export function rowBootstrapInterval<T>(
  items: readonly T[],
  statistic: (sample: readonly T[]) => number | undefined,
  options: RowBootstrapOptions = {},
): [number, number] | undefined {
  const n = items.length;
  if (n < 2) return undefined;
  const resamples = options.resamples ?? 2000;
  const random = mulberry32(options.seed ?? 0);
  const values: number[] = [];
  const sample = new Array<T>(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) sample[i] = items[Math.floor(random() * n)] as T;
    const value = statistic(sample);
    if (value !== undefined && Number.isFinite(value)) values.push(value);
  }
  if (values.length < resamples / 2) return undefined;
  values.sort((a, b) => a - b);
  return [quantile(values, 0.025), quantile(values, 0.975)];
}

/** Linear interpolation between order statistics (type 7, numpy's and R's default). */
function quantile(sorted: readonly number[], p: number): number {
  const position = (sorted.length - 1) * p;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const a = sorted[low] as number;
  const b = sorted[high] as number;
  return a + (b - a) * (position - low);
}
