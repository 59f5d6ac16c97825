import type { RowResult } from '../experiment/types.js';
import { reportRow } from './report-row.js';
import type { FinishedRun, OutputStream, Reporter } from './types.js';

/**
 * Writes `{ run, summary, rows }` (with `comparison` before `rows` when the run was compared with
 * a baseline) exactly as `JSON.stringify(document, null, 2)` would, without
 * its final newline, one row at a time: the document is never built whole in memory.
 */
async function writeDocument(out: OutputStream, run: FinishedRun): Promise<void> {
  const { comparison, ...info } = run.info;
  const head = JSON.stringify({ run: info, summary: run.summary, ...(comparison ? { comparison } : {}), rows: [] }, null, 2);
  // `"rows": []\n}` closes the text; the rows go between the brackets.
  out.write(head.slice(0, head.length - '[]\n}'.length));
  let first = true;
  for await (const row of run.rows()) {
    out.write(`${first ? '[\n    ' : ',\n    '}${indentedRow(row)}`);
    first = false;
  }
  out.write(first ? '[]\n}' : '\n  ]\n}');
}

// A row two levels deep, as `JSON.stringify(document, null, 2)` indents it: stringified inside
// two arrays and cut out, which indents it in the same pass instead of a replace over its text.
const NESTED_HEAD = '[\n  [\n    '.length;
const NESTED_TAIL = '\n  ]\n]'.length;

function indentedRow(row: RowResult): string {
  const text = JSON.stringify([[reportRow(row)]], null, 2);
  return text.slice(NESTED_HEAD, text.length - NESTED_TAIL);
}

/** One run: its document. Several (several prompts): an array of their documents. */
export async function writeJson(out: OutputStream, runs: readonly FinishedRun[]): Promise<void> {
  if (runs.length === 1 && runs[0]) {
    await writeDocument(out, runs[0]);
    out.write('\n');
    return;
  }
  out.write('[\n');
  for (const [i, run] of runs.entries()) {
    if (i > 0) out.write(',\n');
    await writeDocument(out, run);
  }
  out.write('\n]\n');
}

/** One JSON document `{ run, summary, rows }` at the end, rows in dataset order. */
export function createJsonReporter(out: OutputStream): Reporter {
  return {
    onRunEnd: (summary, info, rows) => writeJson(out, [{ summary, info, rows }]),
  };
}
