import type { PairedRows } from './pair-rows.js';
import type { ToleranceCheck } from './types.js';

const LISTED = 50;

/**
 * AgentMark's `regression_tolerance`: a row × eval whose score in head is below its score in
 * base × (1 − tolerance) is a regression, each judged alone (no statistics: with a
 * nondeterministic model it fires on noise, which is why the paired tests sit next to it).
 * Scores are the normalised ones, each row's mean over repeats.
 */
export class ToleranceCollector {
  private compared = 0;
  private count = 0;
  private readonly failures: ToleranceCheck['failures'] = [];

  constructor(private readonly tolerance: number) {}

  add(pair: PairedRows, name: string, base: number, head: number): void {
    this.compared++;
    if (!(head < base * (1 - this.tolerance) - 1e-12)) return;
    this.count++;
    if (this.failures.length < LISTED) this.failures.push({ baseIndex: pair.base.index, headIndex: pair.head.index, eval: name, base, head });
  }

  finish(): ToleranceCheck {
    return { tolerance: this.tolerance, compared: this.compared, failures: this.failures, omitted: this.count - this.failures.length, failed: this.count > 0 };
  }
}
