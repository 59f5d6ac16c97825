import { Z95, wilsonInterval } from './statistics.js';
import { tQuantile } from './t-distribution.js';

/**
 * One eval's verdicts per dataset row: `verdicts[i]` results with a verdict on row i (its
 * repeats), `passed[i]` of them passed. Rows without a verdict are left out.
 */
export interface RowVerdicts {
  verdicts: ArrayLike<number>;
  passed: ArrayLike<number>;
}

export interface PassRateStats {
  /** Passed verdicts / verdicts. */
  passRate: number;
  ci95: [number, number];
  /**
   * `wilson`: one verdict per row, Wilson's interval over them. `row-clustered`: some row has
   * repeats, so the row is the unit: Wilson's interval at the effective sample size the rows'
   * pass shares give (see `passRateStats`).
   */
  method: 'wilson' | 'row-clustered';
  /** The sample size the interval stands on: the verdicts, or with repeats the effective size (≤ verdicts). */
  effectiveN: number;
}

/**
 * A pass rate with its 95% interval, the dataset row as the unit. Without repeats it is
 * Wilson's score interval (Wilson 1927) over the verdicts. With repeats, a row's repeats are
 * not independent samples: the variance of the pass rate comes from the rows' pass shares (the
 * cluster-robust variance of a ratio estimator, as Miller 2024 "Adding Error Bars to Evals"
 * recommends: n/(n−1) · Σ(yᵢ − p·mᵢ)² / (Σmᵢ)², which for equal repeats is s²/n of the row
 * shares), and the interval is Wilson's at the effective sample size p(1 − p) / variance,
 * capped at the number of verdicts, with t(0.975, rows − 1) for z (Korn & Graubard 1998). In
 * the middle of [0, 1] that is the t interval of the row shares; near 0 or 1 it stays inside
 * and is not zero-width. When every verdict agrees there is no spread to measure, and the
 * interval is Wilson's over the verdicts.
 * Undefined with no verdicts.
 */
export function passRateStats(rows: RowVerdicts): PassRateStats | undefined {
  const n = rows.verdicts.length;
  let total = 0;
  let passed = 0;
  let repeats = false;
  for (let i = 0; i < n; i++) {
    const m = rows.verdicts[i] as number;
    total += m;
    passed += rows.passed[i] as number;
    if (m > 1) repeats = true;
  }
  if (total === 0) return undefined;
  const p = passed / total;
  if (!repeats || n < 2) {
    return { passRate: p, ci95: wilsonInterval(passed, total) as [number, number], method: 'wilson', effectiveN: total };
  }
  let squares = 0;
  for (let i = 0; i < n; i++) squares += ((rows.passed[i] as number) - p * (rows.verdicts[i] as number)) ** 2;
  const variance = ((n / (n - 1)) * squares) / (total * total);
  const effectiveN = variance > 0 ? Math.min(total, (p * (1 - p)) / variance) : total;
  const z = tQuantile(0.975, n - 1);
  return { passRate: p, ci95: wilsonInterval(p * effectiveN, effectiveN, z) as [number, number], method: 'row-clustered', effectiveN };
}

export interface RepeatRates {
  /** Repeats per row: the most any row had (the k of pass^k). */
  k: number;
  /** Rows with at least one result. */
  rows: number;
  /** pass^k: share of rows that passed in every repeat (an error is not a pass). */
  passAll: number;
  passAllCi95: [number, number];
  /** pass@k: share of rows that passed in at least one repeat. */
  passAny: number;
  passAnyCi95: [number, number];
}

/**
 * pass^k and pass@k over rows with repeats, each row one Bernoulli outcome, so Wilson's
 * interval over rows is exact in its unit. `attempts[i]` counts verdicts and errors on row i.
 * Undefined without repeats (k = 1: both equal the pass rate).
 */
export function repeatRates(attempts: ArrayLike<number>, passed: ArrayLike<number>): RepeatRates | undefined {
  let k = 0;
  let rows = 0;
  let all = 0;
  let any = 0;
  for (let i = 0; i < attempts.length; i++) {
    const m = attempts[i] as number;
    if (m === 0) continue;
    const p = passed[i] as number;
    rows++;
    if (m > k) k = m;
    if (p === m) all++;
    if (p > 0) any++;
  }
  if (k < 2) return undefined;
  return {
    k,
    rows,
    passAll: all / rows,
    passAllCi95: wilsonInterval(all, rows, Z95) as [number, number],
    passAny: any / rows,
    passAnyCi95: wilsonInterval(any, rows, Z95) as [number, number],
  };
}
