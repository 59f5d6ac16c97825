import type { OutputStream, Reporter } from './types.js';

/**
 * One JSON document `{ run, summary, rows }` at the end, rows in dataset order. The rows are
 * read back from the run's results file and written one at a time, so the document is never
 * built whole in memory; the text is what `JSON.stringify(document, null, 2)` would give.
 */
export function createJsonReporter(out: OutputStream): Reporter {
  return {
    async onRunEnd(summary, info, rows) {
      const head = JSON.stringify({ run: info, summary, rows: [] }, null, 2);
      // `"rows": []\n}` closes the text; the rows go between the brackets.
      out.write(head.slice(0, head.length - '[]\n}'.length));
      let first = true;
      for await (const row of rows()) {
        out.write(`${first ? '[\n    ' : ',\n    '}${JSON.stringify(row, null, 2).replace(/\n/g, '\n    ')}`);
        first = false;
      }
      out.write(first ? '[]\n}\n' : '\n  ]\n}\n');
    },
  };
}
