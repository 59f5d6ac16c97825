import type { TextDecoder } from 'node:util';
import { DatasetError } from '../errors/index.js';
import { scanJson } from '../project/json-source-map.js';
import type { InputValidator } from '../prompt/input-validator.js';
import { jsonTooDeepAt, MAX_ROW_DEPTH } from './json-depth.js';
import { readRowEvals } from './row-evals.js';
import { readRowLabels } from './row-labels.js';
import { readRowTimeout } from './row-timeout.js';
import { readRowVerdicts } from './row-verdicts.js';
import type { DatasetRow } from './types.js';

export interface RowContext {
  file: string;
  line: number;
  index: number;
  decoder: TextDecoder;
  validateInput: InputValidator | undefined;
}

const ROW_HINT = 'each line must be a JSON object like {"input": {...}, "expected_output": ...}';

/** Decodes and checks one non-blank line; throws a DatasetError naming file and line. */
export function parseRow(bytes: Buffer, context: RowContext): DatasetRow {
  const { file, line } = context;
  const fail = (code: `DATASET_${string}`, message: string, extra: { column?: number; hint?: string } = {}) =>
    new DatasetError(code, message, {
      location: extra.column === undefined ? { file, line } : { file, line, column: extra.column },
      hint: extra.hint,
    });

  let text: string;
  try {
    text = context.decoder.decode(bytes);
  } catch {
    throw fail('DATASET_INVALID_UTF8', 'line is not valid UTF-8', { hint: 'save the file as UTF-8' });
  }

  const tooDeep = text.length >= 2 * MAX_ROW_DEPTH ? jsonTooDeepAt(text, MAX_ROW_DEPTH) : undefined;
  if (tooDeep !== undefined) {
    throw fail('DATASET_TOO_DEEP', `JSON is nested deeper than ${MAX_ROW_DEPTH} levels`, { column: tooDeep + 1, hint: 'flatten the row; every value a prompt reads fits in far fewer levels' });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (error instanceof RangeError) throw fail('DATASET_TOO_DEEP', 'JSON is nested too deeply to parse');
    // The scanner is only run on failure, to find the column V8's message may not give.
    const scan = scanJson(text);
    if (scan.ok) throw fail('DATASET_INVALID_JSON', `not valid JSON: ${(error as Error).message}`, { hint: ROW_HINT });
    throw fail('DATASET_INVALID_JSON', `not valid JSON: ${scan.problem.message}`, { column: scan.problem.column, hint: ROW_HINT });
  }

  if (!isRecord(value)) throw fail('DATASET_ROW_NOT_OBJECT', `row must be a JSON object (got ${kind(value)})`, { hint: ROW_HINT });
  if (isReportRow(value)) return fromReportRow(value, context, fail);
  const { input, expected_output: expectedOutput, output, ...metadata } = value;
  if (!('input' in value)) throw fail('DATASET_MISSING_INPUT', 'row has no "input"', { hint: ROW_HINT });
  if (!isRecord(input)) {
    throw fail('DATASET_INPUT_NOT_OBJECT', `"input" must be an object of props (got ${kind(input)})`, { hint: ROW_HINT });
  }
  const labels = readRowLabels(metadata);
  if ('problem' in labels) throw fail(labels.code, labels.problem, { hint: 'e.g. {"name": "refund-basic", "tags": ["smoke", "billing"], "input": {...}}' });
  const verdicts = readRowVerdicts(metadata);
  if (verdicts !== undefined && 'problem' in verdicts) throw fail('DATASET_BAD_LABELS', verdicts.problem, { hint: 'e.g. {"labels": {"correct": true, "tone": "formal"}, "input": {...}}' });
  const timeout = readRowTimeout(metadata);
  if ('problem' in timeout) throw fail('DATASET_BAD_TIMEOUT', timeout.problem, { hint: 'e.g. {"timeout_seconds": 5, "input": {...}}' });
  const evals = readRowEvals(metadata);
  if (evals !== undefined && 'problem' in evals) {
    const scan = scanJson(text);
    const found = scan.ok ? scan.pointers.get(evals.pointer) : undefined;
    const column = (evals.at === 'key' ? found?.key : undefined)?.column ?? found?.value.column;
    throw fail('DATASET_BAD_EVALS', evals.problem, { ...(column === undefined ? {} : { column }), hint: 'e.g. {"evals": ["exact_match", {"name": "contains", "options": {"value": "Paris"}, "weight": 2}], "threshold": 0.5, "input": {...}}' });
  }
  const violations = context.validateInput?.(input) ?? [];
  if (violations.length > 0) {
    throw fail('DATASET_INPUT_SCHEMA', `input does not match the prompt's input_schema: ${violations.join('; ')}`);
  }

  const row: DatasetRow = {
    index: context.index,
    line,
    input,
    hasExpectedOutput: 'expected_output' in value,
    metadata,
    hasOutput: 'output' in value,
  };
  if (row.hasExpectedOutput) row.expectedOutput = expectedOutput;
  if (row.hasOutput) row.output = output;
  return row;
}

/**
 * A row of our own `json`/`jsonl` report (or a run's results.jsonl): it has `evals`,
 * `toolCalls` and `repeat`, which no dataset row needs. Read as a dataset row it keeps its
 * `input`, `expectedOutput` (null means none), `output` and `metadata`, so a run's outputs can
 * be scored again (`agentmark score --outputs report.jsonl`) after a scorer changed.
 */
function isReportRow(value: Record<string, unknown>): boolean {
  return isRecord(value['evals']) && Array.isArray(value['toolCalls']) && typeof value['repeat'] === 'number' && !('expected_output' in value);
}

function fromReportRow(
  value: Record<string, unknown>,
  context: RowContext,
  fail: (code: `DATASET_${string}`, message: string) => DatasetError,
): DatasetRow {
  const { input, expectedOutput, output, metadata } = value;
  if (!isRecord(input)) throw fail('DATASET_INPUT_NOT_OBJECT', `"input" must be an object of props (got ${kind(input)})`);
  const violations = context.validateInput?.(input) ?? [];
  if (violations.length > 0) throw fail('DATASET_INPUT_SCHEMA', `input does not match the prompt's input_schema: ${violations.join('; ')}`);
  const row: DatasetRow = {
    index: context.index,
    line: context.line,
    input,
    hasExpectedOutput: expectedOutput !== undefined && expectedOutput !== null,
    metadata: isRecord(metadata) ? metadata : {},
    // An errored row has no output (null): scoring it again says so instead of scoring "null".
    hasOutput: output !== undefined && output !== null,
  };
  if (row.hasExpectedOutput) row.expectedOutput = expectedOutput;
  if (row.hasOutput) row.output = output;
  return row;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'object' : `${typeof value} ${JSON.stringify(value)}`.slice(0, 60);
}
