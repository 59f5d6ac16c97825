import type { ExperimentOutcome } from '../experiment/run-experiment.js';

export type Verdict = 'pass' | 'fail';

/** One eval's numbers in a rerun, with the change since the previous run of this session. */
export interface EvalLine {
  name: string;
  passRate?: number;
  meanScore?: number;
  /** Absent on the first run, or when either run lacked the number. */
  passRateDelta?: number;
  meanScoreDelta?: number;
}

/** A row whose verdict differs from the last time it ran in this session. */
export interface FlippedRow {
  index: number;
  repeat: number;
  from: Verdict;
  to: Verdict;
  input: Record<string, unknown>;
  output: unknown;
  error?: string;
}

export interface RowErrorLine {
  index: number;
  repeat: number;
  message: string;
}

/** What the screen shows about one finished rerun of one experiment. */
export interface RunReport {
  runId: string;
  outcome: ExperimentOutcome;
  model?: string;
  evals: EvalLine[];
  flips: FlippedRow[];
  errors: RowErrorLine[];
  rows: number;
  cached: number;
  /** Set when only the previously failed rows were rerun (`f`). */
  onlyFailed?: number;
  durationMs: number;
}
