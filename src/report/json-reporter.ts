import type { RowResult } from '../experiment/types.js';
import { sortRows } from './sort-rows.js';
import type { OutputStream, Reporter } from './types.js';

/** One JSON document `{ run, summary, rows }` at the end, rows in dataset order. */
export function createJsonReporter(out: OutputStream): Reporter {
  const rows: RowResult[] = [];
  return {
    onRowEnd(row) {
      rows.push(row);
    },
    onRunEnd(summary, info) {
      out.write(`${JSON.stringify({ run: info, summary, rows: sortRows(rows) }, null, 2)}\n`);
    },
  };
}
