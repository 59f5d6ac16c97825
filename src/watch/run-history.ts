import type { ExperimentOutcome } from '../experiment/run-experiment.js';
import type { EvalSummary, RowResult } from '../experiment/types.js';
import type { EvalLine, FlippedRow, RowErrorLine, RunReport, Verdict } from './run-report.js';

export interface RecordedRun {
  outcome: ExperimentOutcome;
  rows: readonly RowResult[];
  model?: string;
  /** The rerun covered only these rows (`f`). */
  onlyIndexes?: ReadonlySet<number>;
  durationMs: number;
}

/**
 * The session's memory of one experiment: the last full run's eval numbers (for ▲/▼) and the
 * latest verdict of every row (for flips). A partial rerun (`f`) updates the verdicts of the
 * rows it ran but not the baseline numbers, which a subset of rows would skew.
 */
export class RunHistory {
  private baseline: EvalSummary[] | undefined;
  private readonly verdicts = new Map<string, Verdict>();

  record(run: RecordedRun): RunReport {
    const { outcome } = run;
    const partial = run.onlyIndexes !== undefined;
    const previous = this.baseline;
    const evals = outcome.summary.evals.map((summary) => evalLine(summary, previous?.find((e) => e.name === summary.name)));
    if (!partial) this.baseline = outcome.summary.evals;

    const flips: FlippedRow[] = [];
    const errors: RowErrorLine[] = [];
    const ordered = [...run.rows].sort((a, b) => a.index - b.index || a.repeat - b.repeat);
    for (const row of ordered) {
      if (row.error !== undefined) errors.push({ index: row.index, repeat: row.repeat, message: row.error });
      const verdict = verdictOf(row);
      if (verdict === undefined) continue;
      const key = `${row.index}:${row.repeat}`;
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
