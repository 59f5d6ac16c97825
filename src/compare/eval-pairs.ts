import { Growable } from './growable.js';
import type { ReducedEval } from './reduce-rows.js';

/** Change in one eval on one paired row. */
export type RowChange = 'regressed' | 'improved' | 'same';

/** Scores closer than this are equal (means over repeats round differently). */
const EPSILON = 1e-9;

/**
 * One eval's paired values, gathered while pairs stream past: per pair each side's verdicts
 * (repeats with a verdict or an error) and passes, and normalised scores, as numbers in typed
 * arrays. A row's pass share is passed / verdicts: 0 or 1 with one repeat, anything between
 * with repeats (never cut at a half).
 */
export class EvalPairs {
  hasVerdict = false;
  /** Some row has more than one verdict on either side: compared by pass shares, not McNemar. */
  repeated = false;
  readonly baseVerdicts = new Growable();
  readonly basePassed = new Growable();
  readonly headVerdicts = new Growable();
  readonly headPassed = new Growable();
  readonly baseScores = new Growable();
  readonly headScores = new Growable();

  constructor(readonly name: string) {}

  /** Records a pair and says how the row changed on this eval (pass share first, else score). */
  add(base: ReducedEval | undefined, head: ReducedEval | undefined): RowChange | undefined {
    if (base?.hasVerdict || head?.hasVerdict) this.hasVerdict = true;
    let change: RowChange | undefined;
    if (base?.verdict !== undefined && head?.verdict !== undefined) {
      this.baseVerdicts.push(base.verdicts);
      this.basePassed.push(base.passed);
      this.headVerdicts.push(head.verdicts);
      this.headPassed.push(head.passed);
      if (base.verdicts > 1 || head.verdicts > 1) this.repeated = true;
      change = scoreChange(base.verdict, head.verdict);
    }
    if (base?.score !== undefined && head?.score !== undefined) {
      this.baseScores.push(base.score);
      this.headScores.push(head.score);
    }
    return change;
  }
}

/** How a row moved on a score (or a pass share). */
export function scoreChange(base: number, head: number): RowChange {
  return head > base + EPSILON ? 'improved' : head < base - EPSILON ? 'regressed' : 'same';
}
