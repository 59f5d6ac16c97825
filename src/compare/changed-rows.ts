import type { RowResult } from '../experiment/types.js';
import type { RowChange } from './eval-pairs.js';
import type { PairedRows } from './pair-rows.js';
import type { ReducedRow } from './reduce-rows.js';
import type { ChangedRow, ChangedRows, EvalSide } from './types.js';

function side(reduced: ReducedRow, name: string): EvalSide | undefined {
  const row = reduced.first;
  const tally = reduced.evals.get(name);
  const repeats = tally !== undefined && tally.verdicts > 1 ? { repeats: { passed: tally.passed, of: tally.verdicts } } : {};
  const result = row.evals[name];
  if (!result) return row.error === undefined ? undefined : { error: row.error, ...repeats };
  return {
    ...repeats,
    ...(result.passed === undefined ? {} : { passed: result.passed }),
    ...(result.score === undefined ? {} : { score: result.score }),
    ...(result.reason === undefined ? {} : { reason: result.reason }),
    ...(result.error === undefined ? {} : { error: result.error }),
  };
}

/** Keeps the first rows that changed verdict, regressions and improvements apart, and counts all. */
export class ChangedRowCollector {
  private regressed = 0;
  private improved = 0;
  private readonly regressions: ChangedRow[] = [];
  private readonly improvements: ChangedRow[] = [];

  constructor(private readonly limit: number) {}

  /** `changes` is read here only, not kept: the caller may reuse it for the next pair. */
  add(pair: PairedRows, changes: Map<string, RowChange>): void {
    let regressed = false;
    let improved = false;
    for (const value of changes.values()) {
      if (value === 'regressed') regressed = true;
      else if (value === 'improved') improved = true;
    }
    const change = regressed ? 'regressed' : improved ? 'improved' : undefined;
    if (change === undefined) return;
    const list = change === 'regressed' ? this.regressions : this.improvements;
    if (change === 'regressed') this.regressed++;
    else this.improved++;
    if (list.length >= this.limit) return;
    const base = pair.base.first;
    const head = pair.head.first;
    const evals: ChangedRow['evals'] = {};
    for (const [name, evalChange] of changes) {
      const b = side(pair.base, name);
      const h = side(pair.head, name);
      evals[name] = { ...(b ? { base: b } : {}), ...(h ? { head: h } : {}), change: evalChange };
    }
    list.push({
      change,
      baseIndex: base.index,
      headIndex: head.index,
      input: head.input,
      ...(head.expectedOutput === undefined ? {} : { expectedOutput: head.expectedOutput }),
      ...(base.output === undefined ? {} : { baseOutput: base.output }),
      ...(head.output === undefined ? {} : { headOutput: head.output }),
      ...(base.error === undefined ? {} : { baseError: base.error }),
      ...(head.error === undefined ? {} : { headError: head.error }),
      ...(base.conversation === undefined ? {} : { baseConversation: base.conversation }),
      ...(head.conversation === undefined ? {} : { headConversation: head.conversation }),
      evals,
    });
  }

  finish(): ChangedRows {
    const rows = [...this.regressions, ...this.improvements].slice(0, this.limit);
    return { regressed: this.regressed, improved: this.improved, rows, omitted: this.regressed + this.improved - rows.length };
  }
}
