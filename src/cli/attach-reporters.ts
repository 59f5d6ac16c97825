import { relative } from 'node:path';
import type { RunInfo, RunListener } from '../experiment/events.js';
import { createProgressReporter, formatSummary, reporters, type Reporter } from '../report/index.js';
import type { OutStream } from './io.js';
import type { ReportSettings } from './run-settings.js';

export interface AttachOptions {
  /** Run folders are shown relative to it. */
  cwd?: string;
  /** Replaces the report of `settings.format` (several prompts combined into one document). */
  report?: Reporter;
  /** Several prompts share the report: rows name their prompt (jsonl). */
  withPrompt?: boolean;
}

/**
 * Turns the runner's events into calls on the chosen report and the progress line. Rows
 * replayed from an earlier attempt (`--resume`) go to the report only, so the final report
 * covers every row while progress counts the rows run now.
 */
export function attachReporters(settings: ReportSettings, out: OutStream, stderr: OutStream, extra: AttachOptions = {}): RunListener {
  const { cwd } = extra;
  const progress: Reporter | undefined = settings.quiet ? undefined : createProgressReporter(stderr);
  // On a terminal the table is fitted to its width; in a pipe or a file it keeps full cells.
  const width = out.isTTY && out.columns ? out.columns : undefined;
  const report =
    extra.report ??
    reporters[settings.format](out, { truncate: settings.truncate, ...(cwd === undefined ? {} : { cwd }), ...(width === undefined ? {} : { width }), ...(extra.withPrompt ? { withPrompt: true } : {}) });
  // With -o the report is in a file: stderr still says how the run went and where the report is.
  const told: Reporter | undefined =
    settings.output === undefined || settings.quiet
      ? undefined
      : { onRunEnd: (summary, info) => void stderr.write(`${[...formatSummary(summary, info), `  Report:   ${settings.output} (${settings.format})`].join('\n')}\n`) };
  const all = [progress, report, told].filter((reporter): reporter is Reporter => reporter !== undefined);
  const shown = (info: RunInfo): RunInfo => (cwd === undefined ? info : { ...info, runDir: relative(cwd, info.runDir) || '.' });
  return async (event) => {
    if (event.type === 'warning') {
      stderr.write(`warning: ${event.message}\n`);
    } else if (event.type === 'run-start') {
      for (const reporter of all) await reporter.onRunStart?.(shown(event.info));
    } else if (event.type === 'row-end') {
      for (const reporter of event.replayed ? [report] : all) await reporter.onRowEnd?.(event.row);
    } else if (event.type === 'run-end') {
      for (const reporter of all) await reporter.onRunEnd?.(event.summary, shown(event.info), event.rows);
    }
  };
}
