export { confusionOf, type Confusion } from './confusion.js';
export { kappa, percentAgreement, type KappaWeights } from './kappa.js';
export { fleissKappa } from './fleiss-kappa.js';
export { spearman, meanAbsoluteDifference } from './rank-correlation.js';
export { rowBootstrapInterval } from './row-bootstrap.js';
export { evalAgreement, type EvalAgreement, type Estimate, type Verdict, type VerdictKind, type VerdictPair } from './eval-agreement.js';
export { reviewerAgreement, type ReviewerAgreement } from './reviewer-agreement.js';
export { judgeVerdict, verdictKind, verdictProblem } from './verdicts.js';
export { AgreementCollector, DATASET_REVIEWER, type HumanVerdict, type RunAgreement } from './agreement-collector.js';
