import type { EvalComparison, GateOutcome } from './types.js';

export interface GateOptions {
  alpha: number;
  /** Points (0..100). */
  maxDropPoints?: number;
  /** Whether the caller asked for the gate (`--fail-on-regression` or `--max-drop`). */
  checked: boolean;
}

const points = (fraction: number): string => `${(fraction * 100).toFixed(1)}`;

/**
 * The regression gate: an eval is significantly worse when its one-sided Holm-adjusted p-value
 * is below α and its difference is negative; with a max drop, when its pass rate (verdict
 * evals) or mean normalised score (score evals) fell by more than that many points.
 */
export function evaluateGate(evals: readonly EvalComparison[], options: GateOptions): GateOutcome {
  const reasons: string[] = [];
  for (const e of evals) {
    const primary = e.kind === 'verdict' ? e.passRate : e.score;
    if (primary?.pWorseHolm !== undefined && primary.estimate < 0 && primary.pWorseHolm < options.alpha) {
      const what = e.kind === 'verdict' ? 'pass rate' : 'mean score';
      reasons.push(
        `${e.name}: ${what} significantly worse (${points(primary.estimate)} points, one-sided p = ${primary.pWorseHolm.toPrecision(2)} after Holm < α = ${options.alpha})`,
      );
    }
    if (options.maxDropPoints !== undefined) {
      const limit = options.maxDropPoints / 100;
      // The eval's own measure: a verdict eval's normalised score is its pass rate again.
      const [what, base, head] = e.kind === 'verdict' ? ['pass rate', e.base.passRate, e.head.passRate] : ['mean score', e.base.meanScore, e.head.meanScore];
      if (base !== undefined && head !== undefined && base - head > limit + 1e-12) {
        reasons.push(`${e.name}: ${what} dropped ${points(base - head)} points (more than --max-drop ${options.maxDropPoints})`);
      }
    }
  }
  const failed = reasons.length > 0;
  const detectable = evals.map((e) => e.minDetectable).filter((v): v is number => v !== undefined);
  const smallest = detectable.length === 0 ? '' : ` (smallest detectable change: ±${points(Math.max(...detectable))} points)`;
  const message = failed ? `regression: ${reasons.join('; ')}` : `no significant regression${smallest}`;
  return { checked: options.checked, failed, reasons, message };
}
