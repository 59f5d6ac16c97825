import type { RunInfo } from '../experiment/events.js';
import type { RowResult, RunSummary } from '../experiment/types.js';

/** Anything with a string `write`: process.stdout, a file stream, a test buffer. */
export interface OutputStream {
  write(chunk: string): unknown;
}

/** What reporters know about the run besides its rows: the runner's own RunInfo. */
export type { RunInfo } from '../experiment/events.js';

/**
 * A reporter only listens to the runner. Each hook is optional; the runner awaits returned
 * promises so output finishes before the process exits.
 */
export interface Reporter {
  onRunStart?(info: RunInfo): void | Promise<void>;
  onRowEnd?(row: RowResult): void | Promise<void>;
  /** `rows()`: every row of the run in dataset order, read back one at a time (a fresh pass each call). */
  onRunEnd?(summary: RunSummary, info: RunInfo, rows: () => AsyncIterable<RowResult>): void | Promise<void>;
}

export interface ReporterOptions {
  /** Longest table cell before it is cut with `…`; 0 keeps cells whole. @default 200 */
  truncate?: number;
  /** Rows the table shows before it only counts the rest. @default 1000 */
  maxTableRows?: number;
  /**
   * Every row in the table, also for a run of more than 50 rows (which otherwise shows its
   * failed and errored rows only). @default false
   */
  allRows?: boolean;
  /** A run of more rows than this is large (its table lists the failed and errored rows). @default 50 */
  largeRun?: number;
  /** Terminal width to fit the table into (the CLI passes it when stdout is a terminal). @default no limit */
  width?: number;
  /** Colour verdicts, errors and the result line (the CLI sets it per stream). @default false */
  color?: boolean;
  /** Several prompts share one report: each jsonl line starts with `"prompt"`, the prompt's path. @default false */
  withPrompt?: boolean;
  /** Folder that a relative `RunInfo.runDir` is relative to (html reads the run folder). @default process.cwd() */
  cwd?: string;
}

/** One finished experiment, as a report of whole runs (json, csv, junit) needs it. */
export interface FinishedRun {
  summary: RunSummary;
  info: RunInfo;
  /** Every row in dataset order, read back from the run's results file (a fresh pass per call). */
  rows: () => AsyncIterable<RowResult>;
}

export type ReporterFactory = (out: OutputStream, options?: ReporterOptions) => Reporter;

export type ReporterName = 'table' | 'json' | 'jsonl' | 'csv' | 'junit' | 'markdown' | 'html';
