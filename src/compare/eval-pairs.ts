import { Growable } from './growable.js';
import type { ReducedEval } from './reduce-rows.js';

/** Change in one eval on one paired row. */
export type RowChange = 'regressed' | 'improved' | 'same';

/** Scores closer than this are equal (means over repeats round differently). */
const EPSILON = 1e-9;

/** A row passed when at least half its repeats did (one repeat: it passed). */
export const passedVerdict = (verdict: number): boolean => verdict >= 0.5;

/**
 * One eval's paired values, gathered while pairs stream past: per pair the base and head
 * verdicts (0/1 after reducing repeats) and normalised scores, as numbers in typed arrays.
 */
export class EvalPairs {
  hasVerdict = false;
  readonly baseVerdicts = new Growable();
  readonly headVerdicts = new Growable();
  readonly baseScores = new Growable();
  readonly headScores = new Growable();

  constructor(readonly name: string) {}

  /** Records a pair and says how the row changed on this eval (verdict first, else score). */
  add(base: ReducedEval | undefined, head: ReducedEval | undefined): RowChange | undefined {
    if (base?.hasVerdict || head?.hasVerdict) this.hasVerdict = true;
    let change: RowChange | undefined;
    if (base?.verdict !== undefined && head?.verdict !== undefined) {
      const b = passedVerdict(base.verdict) ? 1 : 0;
      const h = passedVerdict(head.verdict) ? 1 : 0;
      this.baseVerdicts.push(b);
      this.headVerdicts.push(h);
      change = h > b ? 'improved' : h < b ? 'regressed' : 'same';
    }
    if (base?.score !== undefined && head?.score !== undefined) {
      this.baseScores.push(base.score);
      this.headScores.push(head.score);
    }
    return change;
  }
}

/** How a row moved on a score-only eval. */
export function scoreChange(base: number, head: number): RowChange {
  return head > base + EPSILON ? 'improved' : head < base - EPSILON ? 'regressed' : 'same';
}
