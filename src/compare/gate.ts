import type { EvalComparison, EvalGate, GateOutcome, GateVerdict } from './types.js';

export interface GateOptions {
  alpha: number;
  /** The drop, in points (0..100), the comparison must be able to detect for `no regression`. */
  maxDropPoints: number;
  /** `--max-drop` was given: a drop past it is a regression too. */
  maxDropGiven: boolean;
  /** Whether the caller asked for the gate (`--fail-on-regression`, `--fail-on-inconclusive` or `--max-drop`). */
  checked: boolean;
}

const points = (fraction: number): string => `${(fraction * 100).toFixed(1)}`;

function evalGate(e: EvalComparison, options: GateOptions, needed: number | undefined): EvalGate {
  const primary = e.kind === 'verdict' ? e.passRate : e.score;
  const what = e.kind === 'verdict' ? 'pass rate' : 'mean score';
  const reasons: string[] = [];
  if (primary?.pWorseHolm !== undefined && primary.estimate < 0 && primary.pWorseHolm < options.alpha) {
    reasons.push(`${e.name}: ${what} significantly worse (${points(primary.estimate)} points, one-sided p = ${primary.pWorseHolm.toPrecision(2)} after Holm < α = ${options.alpha})`);
  }
  if (options.maxDropGiven) {
    // A one-sided test of the drop against the margin, not the observed drop: noise alone
    // moved 5 points past a 5-point margin 14–27% of the time at 100 rows or fewer. Fails only
    // when the drop is past --max-drop with confidence 1 − α / evals (dropLowerBound).
    const bound = e.dropLowerBound;
    if (primary !== undefined && bound !== undefined && bound > options.maxDropPoints / 100 + 1e-12) {
      const level = e.detectableAlpha ?? options.alpha;
      reasons.push(
        `${e.name}: ${what} dropped ${points(-primary.estimate)} points, at least ${points(bound)} points with one-sided confidence ${+(1 - level).toPrecision(4)} (more than --max-drop ${options.maxDropPoints})`,
      );
    }
  }
  if (reasons.length > 0) return { outcome: 'regressed', reason: reasons.join('; ') };
  const target = options.maxDropPoints / 100;
  if (e.minDetectable !== undefined && e.minDetectable <= target + 1e-12) {
    return { outcome: 'no regression', reason: `${e.name}: no significant drop, and a drop of ${options.maxDropPoints} points would have been seen (detectable: ${points(e.minDetectable)})` };
  }
  const why =
    primary === undefined
      ? 'no paired results to test'
      : e.undetectable
        ? `not detectable with ${e.pairs} pairs`
        : e.minDetectable === undefined
          ? 'the smallest detectable drop cannot be estimated'
          : `smallest detectable drop ${points(e.minDetectable)} points > max drop ${options.maxDropPoints}`;
  // The figure is this eval's, for this pair of runs: its discordance and its test, at the drop asked.
  const more = needed === undefined ? '' : `; about ${needed - e.pairs} more paired rows needed to detect a ${options.maxDropPoints}-point drop (${needed} in all)`;
  return { outcome: 'inconclusive', reason: `${e.name}: no significant drop, but ${why}${more}`, ...(needed === undefined ? {} : { pairsNeeded: needed }) };
}

/**
 * The regression gate, three ways per eval and for the comparison (the worst eval):
 * `regressed` when the one-sided Holm-adjusted p-value is below α and the difference is
 * negative (or, with an explicit max drop, the pass rate or mean fell by more); otherwise
 * `no regression` when the eval's test could detect a drop of max-drop points with 80% power,
 * else `inconclusive`. An eval with no paired results (in one run only) gets its own outcome but
 * does not decide; no eval with paired results at all is inconclusive. Sets `gate` on each eval.
 */
export function evaluateGate(evals: readonly EvalComparison[], options: GateOptions, needed: ReadonlyMap<string, number> = new Map()): GateOutcome {
  const reasons: string[] = [];
  const inconclusive: string[] = [];
  for (const e of evals) {
    e.gate = evalGate(e, options, needed.get(e.name));
    // An eval in one run only (added or removed) has nothing to compare: it does not decide.
    if (e.pairs === 0) continue;
    if (e.gate.outcome === 'regressed') reasons.push(e.gate.reason);
    else if (e.gate.outcome === 'inconclusive') inconclusive.push(e.gate.reason);
  }
  if (evals.every((e) => e.pairs === 0)) inconclusive.push('no eval has paired results to compare');
  const outcome: GateVerdict = reasons.length > 0 ? 'regressed' : inconclusive.length > 0 ? 'inconclusive' : 'no regression';
  const message =
    outcome === 'regressed'
      ? `regressed: ${reasons.join('; ')}`
      : outcome === 'inconclusive'
        ? `inconclusive: ${inconclusive.join('; ')}`
        : `no regression: no eval significantly worse, and each could detect a drop of ${options.maxDropPoints} points`;
  return { checked: options.checked, outcome, failed: outcome === 'regressed', reasons, inconclusive, message };
}
