import { rowLabels } from '../dataset/row-labels.js';
import type { RowResult } from '../experiment/types.js';
import { csvEscape } from './csv-escape.js';
import { formatValue } from './format-value.js';
import type { FinishedRun, OutputStream, Reporter } from './types.js';

const EVAL_FIELDS = ['score', 'passed', 'label', 'reason', 'error'] as const;
/** Metadata keys with columns of their own (`name`, `tags`), left out of the `metadata.<key>` ones. */
const LABEL_KEYS: ReadonlySet<string> = new Set(['name', 'tags']);

const field = (value: unknown): string => csvEscape(value === undefined || value === null ? '' : formatValue(value));

function rowFields(row: RowResult, metadataKeys: readonly string[], evalNames: readonly string[]): string[] {
  const metadata = row.metadata ?? {};
  const { name, tags } = rowLabels(metadata);
  const fields = [
    row.index,
    row.repeat,
    name,
    tags.join(','),
    row.input,
    row.expectedOutput,
    row.output,
    row.error,
    row.latencyMs,
    row.cached,
    ...metadataKeys.map((key) => metadata[key]),
  ].map(field);
  for (const name of evalNames) {
    // An eval only other rows carry is left empty here, as one that did not run.
    const result = row.evals[name]?.absent ? undefined : row.evals[name];
    for (const key of EVAL_FIELDS) fields.push(field(result?.[key]));
  }
  return fields;
}

/** Every metadata key of the runs' rows but `name` and `tags`, first seen first (a pass over the rows). */
async function metadataKeysOf(runs: readonly Pick<FinishedRun, 'rows'>[]): Promise<string[]> {
  const keys = new Set<string>();
  for (const run of runs) {
    for await (const row of run.rows()) for (const key of Object.keys(row.metadata ?? {})) if (!LABEL_KEYS.has(key)) keys.add(key);
  }
  return [...keys];
}

/**
 * Writes runs as one CSV: a header row, then one line per row × repeat in dataset order, read
 * back from each run's results file as it is written (never all held at once). The row's `name`
 * and `tags` (tags joined by commas) have columns after its index, and every other metadata key
 * one `metadata.<key>` column after `cached` (found by a first pass over the rows; a row without
 * the key leaves it empty). With several runs (several prompts) a first `prompt` column says
 * whose row it is, and the eval columns are those of every run, first seen first; a row leaves
 * other prompts' evals empty.
 */
export async function writeCsv(out: OutputStream, runs: readonly Pick<FinishedRun, 'info' | 'rows'>[]): Promise<void> {
  const withPrompt = runs.length > 1;
  const evalNames = [...new Set(runs.flatMap((run) => run.info.evalNames))];
  const metadataKeys = await metadataKeysOf(runs);
  const header = [
    ...(withPrompt ? ['prompt'] : []),
    'index',
    'repeat',
    'name',
    'tags',
    'input',
    'expected_output',
    'output',
    'error',
    'latency_ms',
    'cached',
    ...metadataKeys.map((key) => `metadata.${key}`),
  ];
  for (const name of evalNames) header.push(...EVAL_FIELDS.map((key) => `${name}_${key}`));
  out.write(`${header.map(csvEscape).join(',')}\n`);
  for (const run of runs) {
    const prompt = withPrompt ? `${csvEscape(run.info.promptPath)},` : '';
    for await (const row of run.rows()) out.write(`${prompt}${rowFields(row, metadataKeys, evalNames).join(',')}\n`);
  }
}

/** The CSV of one run, written when it ends (see `writeCsv`). */
export function createCsvReporter(out: OutputStream): Reporter {
  return {
    onRunEnd: (_summary, info, rows) => writeCsv(out, [{ info, rows }]),
  };
}
