import type { Reporter } from './types.js';

/**
 * Several reporters as one, called in the order given and each awaited, so e.g. the progress
 * line is cleared before the table prints.
 */
export function combineReporters(reporters: readonly Reporter[]): Reporter {
  return {
    async onRunStart(info) {
      for (const reporter of reporters) await reporter.onRunStart?.(info);
    },
    async onRowEnd(row) {
      for (const reporter of reporters) await reporter.onRowEnd?.(row);
    },
    async onRunEnd(summary, info, rows) {
      for (const reporter of reporters) await reporter.onRunEnd?.(summary, info, rows);
    },
  };
}
