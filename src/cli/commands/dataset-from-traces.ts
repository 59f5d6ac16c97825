import { realpath } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { UsageError } from '../../errors/index.js';
import { ExitCode } from '../exit-codes.js';
import { assertWritableFile } from '../report-output.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';

const options = {
  ...commonOptions,
  output: { type: 'string', short: 'o', value: '<file.jsonl>', description: 'The dataset file to append to (created when missing)' },
  'span-name': { type: 'string', value: '<name>', description: 'Only spans of this name (default: every span that carries an input)' },
  limit: { type: 'integer', value: '<n>', min: 1, description: 'Write at most n rows' },
  expected: { type: 'string', value: 'output', description: "Keep the span's produced output as expected_output" },
  'max-bytes': { type: 'integer', value: '<n>', min: 1, description: 'Read at most n bytes of each file, decompressed (default 1 GiB: a gzip bomb stops there, exit 2)' },
} satisfies OptionTable;

const help = {
  usage: 'agentmark dataset from-traces <file...> -o <file.jsonl> [--span-name <name>] [--limit <n>] [--expected output] [--max-bytes <n>]',
  summary:
    'Appends dataset rows taken from traces exported as OTLP/JSON files (e.g. by the collector\'s\n' +
    'file exporter; gzip too): `input` from the prompt\'s props when the span is an AgentMark row\n' +
    '(exported with --otel-content), else `input.messages` from gen_ai.input.messages; with\n' +
    '--expected output, the produced output as expected_output; `source` names the trace and span.\n' +
    'A row the file already holds (same input and expected output) is not written again.',
  options,
};

/** `agentmark dataset from-traces`: production traces become eval cases. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags, positionals } = parseOptions(argv, options, 'dataset from-traces');
  if (flags.help) {
    io.stdout.write(renderHelp(help));
    return ExitCode.ok;
  }
  if (positionals.length === 0) throw new UsageError('USAGE_MISSING_FILE', 'dataset from-traces needs a traces file', { hint: 'e.g. `agentmark dataset from-traces traces.json -o datasets/from-prod.jsonl`' });
  if (flags.output === undefined) throw new UsageError('USAGE_MISSING_OUTPUT', 'dataset from-traces needs -o <file.jsonl>', { hint: 'the rows are appended to it' });
  if (flags.expected !== undefined && flags.expected !== 'output') throw new UsageError('USAGE_BAD_VALUE', `--expected ${flags.expected}: the only choice is "output"`);
  assertWritableFile('-o', flags.output, io.cwd);
  const { datasetFromTraces } = await import('../../otel/import/index.js');
  const path = resolve(io.cwd, flags.output);
  const files = positionals.map((file) => resolve(io.cwd, file));
  // Rows appended to a traces file would make it unreadable as traces.
  const real = (file: string): Promise<string> => realpath(file).catch(() => file);
  const target = await real(path);
  for (const [i, file] of files.entries()) {
    if ((await real(file)) === target) {
      throw new UsageError('USAGE_OUTPUT_IS_INPUT', `-o ${flags.output}: this is the traces file ${positionals[i]} it reads`, { hint: 'write the rows to a dataset file of their own, e.g. datasets/from-traces.jsonl' });
    }
  }
  const result = await datasetFromTraces(
    files,
    path,
    {
      ...(flags['span-name'] === undefined ? {} : { spanName: flags['span-name'] }),
      ...(flags.limit === undefined ? {} : { limit: flags.limit }),
      ...(flags.expected === 'output' ? { expected: 'output' as const } : {}),
      ...(flags['max-bytes'] === undefined ? {} : { maxBytes: flags['max-bytes'] }),
    },
  );
  const skipped = result.skipped > 0 ? `; ${result.skipped} skipped (already in the file or repeated)` : '';
  io.stderr.write(`Wrote ${result.written} row${result.written === 1 ? '' : 's'} to ${relative(io.cwd, path)} from ${positionals.length} traces file${positionals.length === 1 ? '' : 's'}${skipped}\n`);
  return ExitCode.ok;
}
