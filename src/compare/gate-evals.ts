import { assignDetectable } from './detectable.js';
import type { RawEvalStats } from './eval-statistics.js';
import { evaluateGate, type GateOptions } from './gate.js';
import { holmAdjust } from './stats/index.js';
import type { EvalComparison, GateOutcome } from './types.js';

/** Holm-adjusts the p-values of the evals with a test (two-sided and one-sided, apart). */
function adjustHolm(raw: RawEvalStats[]): void {
  const tested = raw.filter((r) => r.pValue !== undefined && r.pWorse !== undefined);
  const p = holmAdjust(tested.map((r) => r.pValue as number));
  const worse = holmAdjust(tested.map((r) => r.pWorse as number));
  tested.forEach((r, i) => {
    const target = r.comparison.kind === 'verdict' ? r.comparison.passRate : r.comparison.score;
    if (!target) return;
    target.pValueHolm = p[i] as number;
    target.pWorseHolm = worse[i] as number;
  });
}

/**
 * From each eval's own statistics to the comparison's gate: Holm across evals, the smallest
 * detectable drop and the drop's one-sided bound at α / evals, then the three-way gate. What
 * `compareRuns` does after pairing, kept apart so that the gate's error rates can be simulated
 * on pairs directly (test/compare/max-drop-false-alarm.test.ts).
 */
export function gateEvals(raw: RawEvalStats[], options: GateOptions): { evals: EvalComparison[]; gate: GateOutcome } {
  adjustHolm(raw);
  const needed = assignDetectable(raw, options.alpha, options.maxDropPoints / 100);
  const evals = raw.map((r) => r.comparison);
  return { evals, gate: evaluateGate(evals, options, needed) };
}
