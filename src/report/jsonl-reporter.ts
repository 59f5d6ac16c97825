import { reportRow } from './report-row.js';
import type { OutputStream, Reporter, ReporterOptions } from './types.js';

/**
 * One row per line as each finishes: nothing is held, so a pipe sees rows live. With
 * `withPrompt` (several prompts in one report) each line names its prompt first.
 */
export function createJsonlReporter(out: OutputStream, options: ReporterOptions = {}): Reporter {
  let prompt: string | undefined;
  return {
    onRunStart(info) {
      if (options.withPrompt) prompt = info.promptPath;
    },
    onRowEnd(row) {
      const shaped = reportRow(row);
      out.write(`${JSON.stringify(prompt === undefined ? shaped : { prompt, ...shaped })}\n`);
    },
  };
}
