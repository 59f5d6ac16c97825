import type { RunAgreement } from '../scoring/agreement/index.js';
import type { GateResult } from './types.js';

/**
 * `test_settings.judge_min_agreement`: each eval's judge must agree with the dataset's human
 * labels at least this well. The gate reads the lower bound of kappa's 95% interval, so a
 * handful of lucky rows cannot pass it; no labelled rows, or too few for an interval, fail.
 */
export function agreementGates(minimums: Readonly<Record<string, number>> | undefined, agreement: RunAgreement | undefined): GateResult[] {
  return Object.entries(minimums ?? {}).map(([name, minimum]) => {
    const gate = `agreement:${name}`;
    const found = agreement?.evals.find((entry) => entry.eval === name);
    if (!found || found.n === 0) {
      return { name: gate, passed: false, message: `${name}: no rows carry a human label to hold the judge to κ ≥ ${minimum}` };
    }
    const { value, ci95 } = found.kappa;
    if (found.kappa.undefinedReason) {
      return { name: gate, passed: false, message: `${name}: κ is undefined over ${found.n} labelled row${found.n === 1 ? '' : 's'} (${found.kappa.undefinedReason}: the judge or the people gave one verdict only)` };
    }
    if (value === undefined || ci95 === undefined) {
      return { name: gate, passed: false, message: `${name}: κ has no interval over ${found.n} labelled row${found.n === 1 ? '' : 's'} (needs two or more with verdicts that vary)` };
    }
    const low = ci95[0];
    const passed = low >= minimum;
    return {
      name: gate,
      passed,
      message: `${name}: judge κ ${value.toFixed(2)} [${ci95[0].toFixed(2)}, ${ci95[1].toFixed(2)}] over ${found.n} labelled rows; lower bound ${passed ? '>=' : '<'} ${minimum}`,
    };
  });
}
