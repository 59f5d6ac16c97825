import type { ExperimentOutcome } from '../experiment/run-experiment.js';
import type { EvalSummary, RowResult } from '../experiment/types.js';
import { summarizeEvals } from '../scoring/index.js';
import type { EvalLine, FlippedRow, RowErrorLine, RunReport, Verdict } from './run-report.js';

export interface RecordedRun {
  outcome: ExperimentOutcome;
  rows: readonly RowResult[];
  model?: string;
  /** The rerun covered only these rows (`f`). */
  onlyIndexes?: ReadonlySet<number>;
  durationMs: number;
}

type RowKey = `${number}:${number}`;
const keyOf = (row: Pick<RowResult, 'index' | 'repeat'>): RowKey => `${row.index}:${row.repeat}`;

/**
 * The session's memory of one experiment: the last full run's eval numbers (for ▲/▼), and the
 * latest verdict and eval results of every row (for flips, and for `f`). A partial rerun (`f`)
 * is compared with the same rows' previous results, never with the whole run's numbers: a
 * subset of failed rows against all rows would read as a collapse (`pass 0.0% ▼ -91.7%`).
 * It updates those rows' results but not the baseline numbers of the next full run.
 */
export class RunHistory {
  private baseline: EvalSummary[] | undefined;
  private readonly verdicts = new Map<RowKey, Verdict>();
  /** Eval results only (small objects the rows already hold), not inputs and outputs. */
  private readonly results = new Map<RowKey, Pick<RowResult, 'index' | 'evals'>>();

  record(run: RecordedRun): RunReport {
    const { outcome } = run;
    const partial = run.onlyIndexes !== undefined;
    const previous = partial ? this.sameRowsBefore(run.rows, outcome.summary.evals) : this.baseline;
    const evals = outcome.summary.evals.map((summary) => evalLine(summary, previous?.find((e) => e.name === summary.name)));
    if (!partial) this.baseline = outcome.summary.evals;
    for (const row of run.rows) this.results.set(keyOf(row), { index: row.index, evals: row.evals });

    const flips: FlippedRow[] = [];
    const errors: RowErrorLine[] = [];
    const ordered = [...run.rows].sort((a, b) => a.index - b.index || a.repeat - b.repeat);
    for (const row of ordered) {
      if (row.error !== undefined) errors.push({ index: row.index, repeat: row.repeat, message: row.error });
      const verdict = verdictOf(row);
      if (verdict === undefined) continue;
      const key = keyOf(row);
      const before = this.verdicts.get(key);
      this.verdicts.set(key, verdict);
      if (before === undefined || before === verdict) continue;
      flips.push({
        index: row.index,
        repeat: row.repeat,
        from: before,
        to: verdict,
        input: row.input,
        output: row.output,
        ...(row.error === undefined ? {} : { error: row.error }),
      });
    }
    return {
      runId: outcome.runId,
      outcome,
      ...(run.model === undefined ? {} : { model: run.model }),
      evals,
      flips,
      errors,
      rows: outcome.summary.rows,
      cached: outcome.summary.cached,
      ...(partial ? { onlyFailed: run.onlyIndexes?.size ?? 0 } : {}),
      durationMs: run.durationMs,
    };
  }

  /**
   * The statistics of the rows that ran now, from their results before this run, computed by
   * the same summarizer as the run's own; undefined when none of them ran before.
   */
  private sameRowsBefore(rows: readonly RowResult[], current: readonly EvalSummary[]): EvalSummary[] | undefined {
    const before = rows.flatMap((row) => this.results.get(keyOf(row)) ?? []);
    if (before.length === 0) return undefined;
    return summarizeEvals(before, current.map((e) => e.name));
  }
}

/** Failing any eval or erroring fails a row; a row with no verdict-bearing eval has none. */
export function verdictOf(row: RowResult): Verdict | undefined {
  if (row.error !== undefined) return 'fail';
  const results = Object.values(row.evals);
  if (results.some((result) => result.error !== undefined || result.passed === false)) return 'fail';
  return results.some((result) => result.passed === true) ? 'pass' : undefined;
}

function evalLine(current: EvalSummary, previous: EvalSummary | undefined): EvalLine {
  const line: EvalLine = { name: current.name };
  if (current.passRate !== undefined) line.passRate = current.passRate;
  if (current.meanScore !== undefined) line.meanScore = current.meanScore;
  if (previous?.passRate !== undefined && current.passRate !== undefined) line.passRateDelta = current.passRate - previous.passRate;
  if (previous?.meanScore !== undefined && current.meanScore !== undefined) line.meanScoreDelta = current.meanScore - previous.meanScore;
  return line;
}
