import type { EvalAgreement } from './eval-agreement.js';
import type { ReviewerAgreement } from './reviewer-agreement.js';

/**
 * Judge–human agreement of a run, per eval, and among reviewers where there are several. In a
 * file of its own: the run summary (experiment/types.ts) holds one, and the collector that makes
 * it reads rows, so neither imports the other.
 */
export interface RunAgreement {
  evals: EvalAgreement[];
  reviewers: ReviewerAgreement[];
  /** Rows left out of judge agreement because their reviewers split evenly, by eval. */
  ties: Record<string, number>;
}
