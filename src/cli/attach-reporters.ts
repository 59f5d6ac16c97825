import type { RunListener } from '../experiment/events.js';
import { createProgressReporter, reporters, type Reporter } from '../report/index.js';
import type { OutStream } from './io.js';
import type { ReportSettings } from './run-settings.js';

/** Turns the runner's events into calls on the chosen report and the progress line. */
export function attachReporters(settings: ReportSettings, out: OutStream, stderr: OutStream): RunListener {
  const list: Reporter[] = [];
  if (!settings.quiet) list.push(createProgressReporter(stderr));
  list.push(reporters[settings.format](out, { truncate: settings.truncate }));
  return async (event) => {
    for (const reporter of list) {
      if (event.type === 'run-start') await reporter.onRunStart?.(event.info);
      else if (event.type === 'row-end') await reporter.onRowEnd?.(event.row);
      else if (event.type === 'run-end') await reporter.onRunEnd?.(event.summary, event.info);
    }
  };
}
