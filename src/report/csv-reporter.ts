import type { RowResult } from '../experiment/types.js';
import { csvEscape } from './csv-escape.js';
import { formatValue } from './format-value.js';
import { sortRows } from './sort-rows.js';
import type { OutputStream, Reporter } from './types.js';

const EVAL_FIELDS = ['score', 'passed', 'label', 'reason', 'error'] as const;

const field = (value: unknown): string => csvEscape(value === undefined || value === null ? '' : formatValue(value));

function rowFields(row: RowResult, evalNames: readonly string[]): string[] {
  const fields = [
    row.index,
    row.repeat,
    row.input,
    row.expectedOutput,
    row.output,
    row.error,
    row.latencyMs,
    row.cached,
  ].map(field);
  for (const name of evalNames) {
    const result = row.evals[name];
    for (const key of EVAL_FIELDS) fields.push(field(result?.[key]));
  }
  return fields;
}

/** A header row, then one line per row × repeat in dataset order. */
export function createCsvReporter(out: OutputStream): Reporter {
  const rows: RowResult[] = [];
  return {
    onRowEnd(row) {
      rows.push(row);
    },
    onRunEnd(_summary, info) {
      const header = ['index', 'repeat', 'input', 'expected_output', 'output', 'error', 'latency_ms', 'cached'];
      for (const name of info.evalNames) header.push(...EVAL_FIELDS.map((key) => `${name}_${key}`));
      const lines = [header.map(csvEscape).join(',')];
      for (const row of sortRows(rows)) lines.push(rowFields(row, info.evalNames).join(','));
      out.write(`${lines.join('\n')}\n`);
    },
  };
}
