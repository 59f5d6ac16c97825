import type { RowResult } from '../experiment/types.js';
import { csvEscape } from './csv-escape.js';
import { formatValue } from './format-value.js';
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

/**
 * A header row, then one line per row × repeat in dataset order, written as the rows are read
 * back from the run's results file (never all held at once).
 */
export function createCsvReporter(out: OutputStream): Reporter {
  return {
    async onRunEnd(_summary, info, rows) {
      const header = ['index', 'repeat', 'input', 'expected_output', 'output', 'error', 'latency_ms', 'cached'];
      for (const name of info.evalNames) header.push(...EVAL_FIELDS.map((key) => `${name}_${key}`));
      out.write(`${header.map(csvEscape).join(',')}\n`);
      for await (const row of rows()) out.write(`${rowFields(row, info.evalNames).join(',')}\n`);
    },
  };
}
