import { commonOptions, type OptionTable } from './options.js';

/** Flags of run-experiment (and watch, which takes the same). */
export const runOptions = {
  ...commonOptions,
  model: { type: 'string', value: '<provider/model>', description: "Override the prompts' model_name" },
  concurrency: { type: 'integer', value: '<n>', min: 1, max: 1000, default: 10, description: 'Rows in flight at once' },
  timeout: { type: 'number', value: '<seconds>', min: 0.001, default: 60, description: 'Per model call; aborts the request' },
  'max-retries': { type: 'integer', value: '<n>', min: 0, max: 20, description: "Retries per call (default: the prompt's max_retries, else 3)" },
  repeat: { type: 'integer', value: '<n>', min: 1, max: 1000, default: 1, description: 'Run every row n times' },
  rows: { type: 'string', value: '<list>', description: 'Only these zero-based rows, e.g. 0,3-5,9' },
  sample: { type: 'integer', value: '<n>', min: 1, description: 'A reproducible random sample of n rows' },
  seed: { type: 'integer', value: '<s>', default: 0, description: 'Seed for --sample and --split' },
  split: { type: 'string', value: '<name:percent>', description: 'A seeded split of the rows, e.g. train:80 or test:20' },
  'skip-eval': { type: 'boolean', description: 'Run the model only; no evals' },
  cache: { type: 'boolean', default: true, description: 'Use the response cache (--no-cache ignores it)' },
  'cache-only': { type: 'boolean', description: 'Never call a model; a missing cache entry is an errored row' },
  resume: { type: 'string', value: '<run-id>', description: 'Continue an interrupted or killed run' },
  format: { type: 'string', value: '<fmt>', default: 'table', description: 'table, json, jsonl, csv, junit or html' },
  output: { type: 'string', short: 'o', value: '<file>', description: 'Write the report to a file instead of stdout' },
  truncate: { type: 'integer', value: '<n>', min: 0, default: 200, description: 'Cut table cells to n characters (0: never)' },
  threshold: { type: 'number', value: '<percent>', min: 0, max: 100, description: 'Fail when the pass rate is below this (0..100)' },
  'eval-timeout': { type: 'number', value: '<seconds>', min: 0.001, default: 30, description: 'Per eval' },
  'judge-model': { type: 'string', value: '<provider/model>', description: 'Model for LLM-judge evals' },
  watch: { type: 'boolean', short: 'w', description: 'Rerun affected experiments when their files change' },
  quiet: { type: 'boolean', short: 'q', description: 'No progress output on stderr' },
  view: { type: 'boolean', description: 'Serve the viewer (127.0.0.1) beside the run: rows appear as they finish' },
  'view-port': { type: 'integer', value: '<n>', min: 0, max: 65535, default: 4848, description: 'Port of the viewer for --view (0: any free port)' },
} satisfies OptionTable;
