import { relative } from 'node:path';
import type { RunInfo, RunListener } from '../experiment/events.js';
import { formatBatchProgress } from '../batch/format-progress.js';
import { createProgressReporter, formatSummary, reporters, type ProgressReporter, type Reporter } from '../report/index.js';
import type { OutStream } from './io.js';
import type { ReportSettings } from './run-settings.js';

export interface AttachOptions {
  /** Run folders are shown relative to it. */
  cwd?: string;
  /** Replaces the report of `settings.format` (several prompts combined into one document). */
  report?: Reporter;
  /** Several prompts share the report: rows name their prompt (jsonl). */
  withPrompt?: boolean;
  /** Rows above which a run's table lists its failed and errored rows only. @default 50 */
  largeRun?: number;
  /** The width stdout would be fitted to (the terminal's, else COLUMNS, else 100): the summary on stderr fits it when stderr is no terminal. */
  columns?: number;
}

/**
 * Turns the runner's events into calls on the chosen report and the progress line. Rows
 * replayed from an earlier attempt (`--resume`) go to the report only, so the final report
 * covers every row while progress counts the rows run now.
 */
export function attachReporters(settings: ReportSettings, out: OutStream, stderr: OutStream, extra: AttachOptions = {}): RunListener {
  const { cwd } = extra;
  const progress: ProgressReporter | undefined = settings.quiet ? undefined : createProgressReporter(stderr);
  // The table is fitted to stdout's width: the terminal's, else COLUMNS, else 100 (PIPED_COLUMNS);
  // a report written with --output keeps whole cells (up to --truncate).
  const width = out.columns !== undefined && out.columns > 0 ? out.columns : undefined;
  const report =
    extra.report ??
    reporters[settings.format](out, { truncate: settings.truncate, ...(settings.allRows || settings.output !== undefined ? { allRows: true } : {}), ...(extra.largeRun === undefined ? {} : { largeRun: extra.largeRun }), ...(cwd === undefined ? {} : { cwd }), ...(width === undefined ? {} : { width }), ...(out.color ? { color: true } : {}), ...(extra.withPrompt ? { withPrompt: true } : {}) });
  // With -o the report is in a file: stderr still says how the run went and where the report is,
  // fitted as the table's summary would be (stderr's terminal, else stdout's width).
  const positive = (n: number | undefined): number | undefined => (n !== undefined && n > 0 ? n : undefined);
  const summaryWidth = positive(stderr.columns) ?? positive(extra.columns);
  const told: Reporter | undefined =
    settings.output === undefined || settings.quiet
      ? undefined
      : { onRunEnd: (summary, info) => void stderr.write(`${[...formatSummary(summary, info, summaryWidth === undefined ? {} : { width: summaryWidth }), `  Report:   ${settings.output} (${settings.format})`].join('\n')}\n`) };
  const all = [progress, report, told].filter((reporter): reporter is Reporter => reporter !== undefined);
  const shown = (info: RunInfo): RunInfo => (cwd === undefined ? info : { ...info, runDir: relative(cwd, info.runDir) || '.' });
  // Synchronous unless a reporter returns a promise: the runner then does not wait a turn of
  // promises per event (three events a row, ~0.03 ms a row at 10,000 rows).
  return (event) => {
    if (event.type === 'warning') {
      stderr.write(`warning: ${event.message}\n`);
    } else if (event.type === 'paced') {
      progress?.paced(event.paced);
    } else if (event.type === 'batch-progress') {
      if (!progress) return;
      progress.clear();
      stderr.write(`batch: ${formatBatchProgress(event.jobs)}\n`);
    } else if (event.type === 'run-start') {
      const info = shown(event.info);
      return inOrder(all, (reporter) => reporter.onRunStart?.(info));
    } else if (event.type === 'row-end') {
      return inOrder(event.replayed ? [report] : all, (reporter) => reporter.onRowEnd?.(event.row));
    } else if (event.type === 'run-end') {
      const info = shown(event.info);
      return inOrder(all, (reporter) => reporter.onRunEnd?.(event.summary, info, event.rows));
    }
    return undefined;
  };
}

/** Calls `call` on each reporter in turn, waiting for the ones that return a promise. */
function inOrder(list: readonly Reporter[], call: (reporter: Reporter) => void | Promise<void>, from = 0): void | Promise<void> {
  for (let i = from; i < list.length; i += 1) {
    const pending = call(list[i] as Reporter);
    if (pending instanceof Promise) return pending.then(() => inOrder(list, call, i + 1));
  }
  return undefined;
}
