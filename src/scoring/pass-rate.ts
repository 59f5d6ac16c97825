import { Z95, wilsonInterval } from './statistics.js';
import { tQuantile } from './t-distribution.js';
import { clopperPearsonInterval } from './exact-interval.js';

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
   * `exact`: one verdict per row, the Clopper-Pearson interval over them. `row-clustered`: some
   * row has repeats, so the row is the unit: the Clopper-Pearson interval at the effective sample
   * size the rows' pass shares give (see `passRateStats`).
   */
  method: 'exact' | 'row-clustered';
  /**
   * The sample size the interval stands on: the verdicts, or with repeats the effective size
   * (between the rows and the verdicts, then shrunk for the few rows the spread is measured on).
   */
  effectiveN: number;
}

/**
 * A pass rate with its 95% interval, the dataset row as the unit.
 *
 * Without repeats: the Clopper-Pearson interval over the verdicts (coverage ≥ 95% at every n
 * and rate; Wilson's dips to 90% at 5–10 rows near 0 or 1).
 *
 * With repeats, a row's repeats are not independent samples (Miller 2024, "Adding Error Bars
 * to Evals"), and the interval is Korn & Graubard's (1998) for clustered proportions:
 * - the variance of p from the rows' pass shares, the cluster-robust variance of a ratio
 *   estimator n/(n−1) · Σ(yᵢ − p·mᵢ)² / (Σmᵢ)² (s²/n of the row shares for equal repeats);
 * - the effective sample size p(1 − p) / variance, kept between the rows and the verdicts (the
 *   design effect 1 + (m − 1)·ICC lies between 1 and m). When every row has the same share the
 *   variance is 0 and nothing says how alike a row's repeats are: the rows, never the verdicts,
 *   are then the sample (30 rows × 10 repeats all passing: as wide as 30 rows, not 300 verdicts);
 * - shrunk by (z / t(0.975, rows − 1))² for a variance measured on few rows;
 * - the Clopper-Pearson interval at that size, with p times it as the successes.
 * Simulated coverage over rows 5–500, repeats 1–10, rates 0.02–0.99 and ICC 0–0.9:
 * test/scoring/pass-rate-coverage.test.ts and docs/statistics.md.
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
  if (!repeats) {
    return { passRate: p, ci95: clopperPearsonInterval(passed, total) as [number, number], method: 'exact', effectiveN: total };
  }
  // The design effect 1 + (m − 1)·ICC is at most the largest row's repeats: fewer rows than
  // total / most is never the sample (with equal repeats, that floor is the rows), and the
  // interval of the rows alone is valid whatever the ICC.
  let most = 0;
  for (let i = 0; i < n; i++) most = Math.max(most, rows.verdicts[i] as number);
  const floor = total / most;
  // The spread is measured on the rows holding the rarer verdict (passes below 50%, failures
  // above): with a 2% pass rate, the few rows with a pass. Its degrees of freedom are those
  // rows less one, not all rows less one: a stray pass on 1 row of 30 says nothing about how
  // alike a row's repeats are, and with that one row the rows alone are the sample.
  const rarePasses = p < 0.5;
  let informative = 0;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const m = rows.verdicts[i] as number;
    const y = rows.passed[i] as number;
    if (rarePasses ? y > 0 : y < m) informative++;
    squares += (y - p * m) ** 2;
  }
  const df = Math.min(n, informative) - 1;
  let effectiveN = floor;
  if (df >= 1 && squares > 0) {
    const variance = ((n / (n - 1)) * squares) / (total * total);
    const measured = Math.min(total, (p * (1 - p)) / variance) * (Z95 / tQuantile(0.975, df)) ** 2;
    effectiveN = Math.max(floor, measured);
  }
  return { passRate: p, ci95: clopperPearsonInterval(p * effectiveN, effectiveN) as [number, number], method: 'row-clustered', effectiveN };
}

export interface RepeatRates {
  /**
   * The k of pass^k and pass@k: the repeats every row had. With unequal attempts (an
   * interrupted or partly resumed run), the fewest any row had, each row's figure taken from its
   * own attempts (see `repeatRates`).
   */
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

/** C(a, k) / C(b, k) for a ≤ b: the chance that k of b attempts drawn without replacement all come from a. */
function choiceRatio(a: number, b: number, k: number): number {
  let ratio = 1;
  for (let j = 0; j < k; j++) ratio *= (a - j) / (b - j);
  return Math.max(0, ratio);
}

/**
 * pass^k and pass@k over rows with repeats. With every row at k attempts each row is one
 * Bernoulli outcome (passed all / passed any), and Wilson's interval over rows is exact in its
 * unit. With unequal attempts, k is the fewest attempts a row had and each row's share comes from
 * its own m attempts, y of them passed, by the unbiased estimators C(y, k)/C(m, k) for pass^k
 * (Yao et al. 2024) and 1 − C(m − y, k)/C(m, k) for pass@k (Chen et al. 2021): a row with 1
 * attempt no longer counts as passing "every repeat" of 10. `attempts[i]` counts verdicts and
 * errors on row i. Undefined without repeats (k = 1: both equal the pass rate).
 */
export function repeatRates(attempts: ArrayLike<number>, passed: ArrayLike<number>): RepeatRates | undefined {
  let most = 0;
  let fewest = Infinity;
  let rows = 0;
  for (let i = 0; i < attempts.length; i++) {
    const m = attempts[i] as number;
    if (m === 0) continue;
    rows++;
    most = Math.max(most, m);
    fewest = Math.min(fewest, m);
  }
  if (most < 2 || fewest < 2) return undefined;
  const k = fewest;
  let all = 0;
  let any = 0;
  for (let i = 0; i < attempts.length; i++) {
    const m = attempts[i] as number;
    if (m === 0) continue;
    const y = passed[i] as number;
    all += choiceRatio(y, m, k);
    any += 1 - choiceRatio(m - y, m, k);
  }
  return {
    k,
    rows,
    passAll: all / rows,
    passAllCi95: wilsonInterval(all, rows, Z95) as [number, number],
    passAny: any / rows,
    passAnyCi95: wilsonInterval(any, rows, Z95) as [number, number],
  };
}
