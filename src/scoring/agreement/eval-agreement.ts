import { confusionOf, type Confusion } from './confusion.js';
import { kappa, percentAgreement } from './kappa.js';
import { meanAbsoluteDifference, spearman } from './rank-correlation.js';
import { rowBootstrapInterval } from './row-bootstrap.js';

import type { Verdict } from '../../dataset/row-verdicts.js';

export type { Verdict };

export type VerdictKind = 'boolean' | 'numeric' | 'categorical';

/** A figure and its 95% row-bootstrap interval (absent when it cannot be computed). */
export interface Estimate {
  value?: number;
  ci95?: [number, number];
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
    kappa: estimate(keyed, ofSample((m) => kappa(m, weights)), kappa(confusion.counts, weights)),
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

function estimate<T>(items: readonly T[], statistic: (sample: readonly T[]) => number | undefined, value: number | undefined): Estimate {
  if (value === undefined) return {};
  const ci95 = rowBootstrapInterval(items, statistic, { seed: SEED });
  return ci95 === undefined ? { value } : { value, ci95 };
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
