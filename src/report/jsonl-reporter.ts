import type { OutputStream, Reporter } from './types.js';

/** One row per line as each finishes: nothing is held, so a pipe sees rows live. */
export function createJsonlReporter(out: OutputStream): Reporter {
  return {
    onRowEnd(row) {
      out.write(`${JSON.stringify(row)}\n`);
    },
  };
}
