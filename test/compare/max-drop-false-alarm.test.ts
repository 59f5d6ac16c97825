import { describe, expect, it } from 'vitest';
import { EvalPairs } from '../../src/compare/eval-pairs.js';
import { evalStatistics } from '../../src/compare/eval-statistics.js';
import { gateEvals } from '../../src/compare/gate-evals.js';
import type { ReducedEval } from '../../src/compare/reduce-rows.js';
import { mulberry32 } from '../../src/dataset/random.js';
import { drawCount, passCountCdf } from '../scoring/simulate-rows.js';

/**
 * `--max-drop 5` under no change: base and head draw each row's verdicts from the same row
 * probability (beta with mean 0.7, ICC 0.3), or its scores from the same row effect, so any drop
 * is noise. When it compared the observed drop with the margin, the rule alone failed 14–27% of
 * such pairs of runs at n ≤ 100. Now it is a one-sided test of the drop against the margin at
 * α / evals: it fails them at most α of the time, and adds under a point to the significance
 * test's own false alarms, which are that test's level (exact or normal; ≤ α up to the
 * simulation's noise). 1,000 seeded simulations a setting (a true 5% has a standard error of 0.7
 * points).
 */
const SIMULATIONS = 1000;
const ALPHA = 0.05;
const options = { alpha: ALPHA, maxDropPoints: 5, maxDropGiven: true, checked: true };

function verdict(passed: number, repeats: number): ReducedEval {
  return { hasVerdict: true, verdicts: repeats, passed, verdict: passed / repeats, score: passed / repeats };
}

interface Alarms {
  /** Runs the max-drop rule failed. */
  maxDrop: number;
  /** Runs the gate failed with --max-drop, and without it. */
  gate: number;
  without: number;
}

function falseAlarms(n: number, repeats: number, kind: 'verdict' | 'score', seed: number): Alarms {
  const random = mulberry32(seed);
  // A row's pass probability p from the beta: its passes in `repeats` are beta-binomial. Base and
  // head share p; given it they are independent binomials, drawn here through p itself.
  const rowP = passCountCdf(1000, 0.7, 0.3);
  const counts = { maxDrop: 0, gate: 0, without: 0 };
  for (let s = 0; s < SIMULATIONS; s++) {
    const pairs = new EvalPairs('ok');
    for (let i = 0; i < n; i++) {
      if (kind === 'score') {
        const effect = 0.2 + 0.6 * random();
        const noise = (): number => Math.min(1, Math.max(0, effect + 0.3 * (random() - 0.5)));
        pairs.add({ hasVerdict: false, verdicts: 0, passed: 0, score: noise() }, { hasVerdict: false, verdicts: 0, passed: 0, score: noise() });
        continue;
      }
      const p = drawCount(random, rowP) / 1000;
      let base = 0;
      let head = 0;
      for (let r = 0; r < repeats; r++) {
        if (random() < p) base++;
        if (random() < p) head++;
      }
      pairs.add(verdict(base, repeats), verdict(head, repeats));
    }
    const { gate } = gateEvals([evalStatistics(pairs, { resamples: 0, seed: s })], options);
    if (gate.outcome === 'regressed') counts.gate++;
    // The eval's reasons, one per rule: the significance test's, and the margin's.
    if (gate.reasons.some((reason) => reason.includes('--max-drop'))) counts.maxDrop++;
    if (gate.reasons.some((reason) => reason.includes('significantly worse'))) counts.without++;
  }
  return { maxDrop: counts.maxDrop / SIMULATIONS, gate: counts.gate / SIMULATIONS, without: counts.without / SIMULATIONS };
}

describe('--max-drop: noise alone fails the gate at most α of the time', () => {
  const kinds = [
    ['verdicts', 1, 'verdict', 0],
    ['verdicts, 3 repeats', 3, 'verdict', 1000],
    ['scores', 1, 'score', 2000],
  ] as const;
  for (const n of [10, 20, 50, 100, 200]) {
    for (const [label, repeats, kind, seed] of kinds) {
      it(`${n} rows, ${label}`, () => {
        const alarms = falseAlarms(n, repeats, kind, seed + n);
        expect(alarms.maxDrop).toBeLessThanOrEqual(ALPHA);
        // What --max-drop adds to the significance test's false alarms: under one point (seen:
        // 0.9 at 10 rows, where Newcombe's bound and McNemar's p disagree most; 0 from 50 rows).
        expect(alarms.gate - alarms.without).toBeLessThanOrEqual(0.01);
      });
    }
  }
});
