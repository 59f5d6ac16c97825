import { confusionOf, type Confusion } from './confusion.js';
import { kappa, percentAgreement } from './kappa.js';
import { kappaInterval } from './kappa-interval.js';
import { meanAbsoluteDifference, spearman } from './rank-correlation.js';
import { rowBootstrapInterval } from './row-bootstrap.js';

import type { Verdict } from '../../dataset/row-verdicts.js';

export type { Verdict };

export type VerdictKind = 'boolean' | 'numeric' | 'categorical';

/**
 * A figure and its 95% interval (absent when it cannot be computed): kappa's from its
 * small-sample-corrected variance (kappa-interval.ts), the others' a row bootstrap.
 */
export interface Estimate {
  value?: number;
  ci95?: [number, number];
  /**
   * Why there is no figure where rows exist: `no variation` when a rater (the judge or the
   * people) gave one verdict only, where kappa is 0/0 or a certain-looking 0 that says nothing.
   */
  undefinedReason?: 'no variation';
}

/** How far one eval's judge agrees with people, over the rows that have both. */
export interface EvalAgreement {
  eval: string;
  kind: VerdictKind;
  /** Rows with both a judge verdict and a human one. */
  n: number;
  /** Share of rows with the same verdict (numeric: the same score). */
  percentAgreement: Estimate;
  /** Cohen's kappa; for numeric scores weighted quadratically over the scores seen. */
  kappa: Estimate;
  /** Numeric scores only: Spearman's rho and the mean absolute difference in score units. */
  spearman?: Estimate;
  meanAbsoluteDifference?: Estimate;
  /** Rows: the human verdict; columns: the judge's. */
  confusion: Confusion;
}

export interface VerdictPair {
  judge: Verdict;
  human: Verdict;
}

/** The bootstrap's seed: fixed, so the same labels always give the same interval. */
const SEED = 20_240_101;

/**
 * Judge–human agreement of one eval. `categories` (categorical scores) fixes the order of the
 * matrix; numeric scores use the distinct values seen, ascending, as ordered categories.
 */
export function evalAgreement(name: string, kind: VerdictKind, pairs: readonly VerdictPair[], categories?: readonly string[]): EvalAgreement {
  const order = categoryOrder(kind, pairs, categories);
  const keyed = pairs.map((pair) => [String(pair.human), String(pair.judge)] as const);
  const confusion = confusionOf(keyed, order);
  const weights = kind === 'numeric' ? 'quadratic' : 'none';
  const ofSample = (fn: (matrix: number[][]) => number | undefined) => (sample: readonly (readonly [string, string])[]) =>
    fn(confusionOf(sample, order).counts);
  const result: EvalAgreement = {
    eval: name,
    kind,
    n: pairs.length,
    percentAgreement: estimate(keyed, ofSample(percentAgreement), percentAgreement(confusion.counts)),
    kappa: kappaEstimate(confusion.counts, weights),
    confusion,
  };
  if (kind === 'numeric') {
    const numeric = pairs.map((pair) => [Number(pair.human), Number(pair.judge)] as const);
    const split = (sample: readonly (readonly [number, number])[]) => [sample.map((p) => p[0]), sample.map((p) => p[1])] as const;
    result.spearman = estimate(numeric, (s) => spearman(...split(s)), spearman(...split(numeric)));
    result.meanAbsoluteDifference = estimate(numeric, (s) => meanAbsoluteDifference(...split(s)), meanAbsoluteDifference(...split(numeric)));
  }
  return result;
}

/**
 * Kappa compares agreement with what chance gives from each rater's spread of verdicts; a rater
 * who gave one verdict only has no spread, and kappa there is 0/0 (or exactly 0 however often
 * the others agree with it): undefined, said as such in every format. Elsewhere the interval is
 * kappaInterval's, which has width wherever there are two rows (no `[1, 1]` from five).
 */
export function kappaEstimate(counts: number[][], weights: 'none' | 'quadratic'): Estimate {
  const rows = counts.map((row) => row.reduce((a, b) => a + b, 0));
  const columns = counts[0]?.map((_, j) => counts.reduce((a, row) => a + (row[j] ?? 0), 0)) ?? [];
  if (rows.some((m) => m > 0) && (!varies(rows) || !varies(columns))) return { undefinedReason: 'no variation' };
  const value = kappa(counts, weights);
  if (value === undefined) return {};
  const ci95 = kappaInterval(counts, weights);
  return ci95 ? { value, ci95 } : { value };
}

/** More than one category in use. */
const varies = (margins: readonly number[]): boolean => margins.filter((m) => m > 0).length > 1;

function estimate<T>(items: readonly T[], statistic: (sample: readonly T[]) => number | undefined, value: number | undefined): Estimate {
  if (value === undefined) return {};
  const ci95 = rowBootstrapInterval(items, statistic, { seed: SEED });
  // A zero-width interval from a handful of rows (every resample agreeing perfectly) claims a
  // certainty those rows do not have: no interval rather than [1, 1].
  return ci95 === undefined || ci95[1] - ci95[0] < 1e-12 ? { value } : { value, ci95 };
}

function categoryOrder(kind: VerdictKind, pairs: readonly VerdictPair[], categories?: readonly string[]): string[] {
  if (kind === 'boolean') return ['false', 'true'];
  if (kind === 'categorical' && categories) return [...categories];
  const seen = new Set<string>();
  for (const pair of pairs) {
    seen.add(String(pair.human));
    seen.add(String(pair.judge));
  }
  const values = [...seen];
  return kind === 'numeric' ? values.sort((a, b) => Number(a) - Number(b)) : values.sort();
}
