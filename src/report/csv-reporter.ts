import type { RowResult } from '../experiment/types.js';
import { csvEscape } from './csv-escape.js';
import { formatValue } from './format-value.js';
import type { FinishedRun, OutputStream, Reporter } from './types.js';

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
 * Writes runs as one CSV: a header row, then one line per row × repeat in dataset order, read
 * back from each run's results file as it is written (never all held at once). With several
 * runs (several prompts) a first `prompt` column says whose row it is, and the eval columns are
 * those of every run, first seen first; a row leaves other prompts' evals empty.
 */
export async function writeCsv(out: OutputStream, runs: readonly Pick<FinishedRun, 'info' | 'rows'>[]): Promise<void> {
  const withPrompt = runs.length > 1;
  const evalNames = [...new Set(runs.flatMap((run) => run.info.evalNames))];
  const header = [...(withPrompt ? ['prompt'] : []), 'index', 'repeat', 'input', 'expected_output', 'output', 'error', 'latency_ms', 'cached'];
  for (const name of evalNames) header.push(...EVAL_FIELDS.map((key) => `${name}_${key}`));
  out.write(`${header.map(csvEscape).join(',')}\n`);
  for (const run of runs) {
    const prompt = withPrompt ? `${csvEscape(run.info.promptPath)},` : '';
    for await (const row of run.rows()) out.write(`${prompt}${rowFields(row, evalNames).join(',')}\n`);
  }
}

/** The CSV of one run, written when it ends (see `writeCsv`). */
export function createCsvReporter(out: OutputStream): Reporter {
  return {
    onRunEnd: (_summary, info, rows) => writeCsv(out, [{ info, rows }]),
  };
}
