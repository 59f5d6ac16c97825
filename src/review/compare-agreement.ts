import type { ScoreSchema } from '../project/types.js';
import type { RunStore, StoredRun } from '../store/index.js';
import { mayHaveLabels } from './may-have-labels.js';
import { agreementOfRun, type RunAgreementReport } from './run-agreement.js';

/** Judge–human agreement of both runs of a comparison, each computed as `agentmark agreement` does. */
export interface CompareAgreement {
  base: RunAgreementReport;
  head: RunAgreementReport;
}

/**
 * Both runs' agreement when both have labels (their own, carried over, or their dataset's) on an
 * eval a judge scored; else undefined, and compare shows nothing of it.
 */
export async function compareAgreement(base: StoredRun, head: StoredRun, scores: Readonly<Record<string, ScoreSchema>>, store?: RunStore): Promise<CompareAgreement | undefined> {
  // Two runs without labels (the usual case) are not read a second time.
  if (!(await mayHaveLabels(base, store)) || !(await mayHaveLabels(head, store))) return undefined;
  const [b, h] = await Promise.all([agreementOfRun(base, scores, store), agreementOfRun(head, scores, store)]);
  return b.evals.length > 0 && h.evals.length > 0 ? { base: b, head: h } : undefined;
}
