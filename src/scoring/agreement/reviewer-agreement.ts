import { fleissKappa } from './fleiss-kappa.js';
import { confusionOf } from './confusion.js';
import { kappaEstimate, type Estimate, type Verdict, type VerdictKind } from './eval-agreement.js';
import { rowBootstrapInterval } from './row-bootstrap.js';

/** How far people agree with each other on one eval: the ceiling a judge can be held to. */
export interface ReviewerAgreement {
  eval: string;
  reviewers: string[];
  /** Rows every one of these reviewers labelled. */
  n: number;
  /** Cohen's kappa for two reviewers (weighted quadratically for numeric scores), Fleiss' for more. */
  method: 'cohen' | 'fleiss';
  kappa: Estimate;
}

const SEED = 20_240_102;

/**
 * Agreement among the reviewers who labelled an eval, over the rows all of them labelled.
 * `rows` maps each row to its verdict per reviewer. Undefined with fewer than two reviewers.
 */
export function reviewerAgreement(name: string, kind: VerdictKind, rows: ReadonlyArray<ReadonlyMap<string, Verdict>>): ReviewerAgreement | undefined {
  const reviewers = [...new Set(rows.flatMap((row) => [...row.keys()]))].sort();
  if (reviewers.length < 2) return undefined;
  const complete = rows.filter((row) => reviewers.every((reviewer) => row.has(reviewer))).map((row) => reviewers.map((r) => String(row.get(r))));
  const seen = [...new Set(complete.flat())];
  const order = kind === 'numeric' ? seen.sort((a, b) => Number(a) - Number(b)) : seen.sort();
  const method = reviewers.length === 2 ? 'cohen' : 'fleiss';
  const weights = kind === 'numeric' ? 'quadratic' : 'none';
  const estimate = method === 'cohen'
    ? kappaEstimate(confusionOf(complete.map((v) => [v[0] as string, v[1] as string] as const), order).counts, weights)
    : fleissEstimate(complete, order);
  return { eval: name, reviewers, n: complete.length, method, kappa: estimate };
}

/**
 * Fleiss' kappa for three or more reviewers, with a row-bootstrap interval: its small-sample
 * analytic interval is not built here, so a zero-width bootstrap interval (every resample in
 * perfect agreement) is left out rather than shown as a certainty.
 */
function fleissEstimate(complete: readonly string[][], order: readonly string[]): Estimate {
  const statistic = (sample: readonly string[][]): number | undefined =>
    fleissKappa(sample.map((verdicts) => order.map((category) => verdicts.filter((v) => v === category).length)));
  const value = statistic(complete);
  if (value === undefined) return {};
  const ci95 = rowBootstrapInterval(complete, statistic, { seed: SEED });
  return ci95 && ci95[1] - ci95[0] > 1e-12 ? { value, ci95 } : { value };
}
