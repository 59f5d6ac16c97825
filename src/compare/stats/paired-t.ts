import { tCdf, tQuantile } from '../../scoring/t-distribution.js';

export interface PairedTResult {
  n: number;
  /** Mean difference, head − base. */
  mean: number;
  /** Sample standard deviation of the differences (n − 1); 0 below two pairs. */
  sd: number;
  /** mean ± t(0.975, n − 1) · sd / √n; only with two pairs or more. */
  ci95?: [number, number];
  /** Two-sided p-value of the t statistic; only with two pairs or more and sd > 0. */
  pValue?: number;
}

/** Student's paired t: the mean of the per-row differences with its t interval. */
export function pairedT(differences: ArrayLike<number>): PairedTResult | undefined {
  const n = differences.length;
  if (n === 0) return undefined;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += differences[i] as number;
  const mean = sum / n;
  if (n < 2) return { n, mean, sd: 0 };
  let squares = 0;
  for (let i = 0; i < n; i++) squares += ((differences[i] as number) - mean) ** 2;
  const sd = Math.sqrt(squares / (n - 1));
  const se = sd / Math.sqrt(n);
  const half = tQuantile(0.975, n - 1) * se;
  const result: PairedTResult = { n, mean, sd, ci95: [mean - half, mean + half] };
  if (se > 0) result.pValue = 2 * (1 - tCdf(Math.abs(mean / se), n - 1));
  return result;
}
