import { join, relative, resolve } from 'node:path';
import { runRefStore } from '../open-store.js';
import { UsageError } from '../../errors/index.js';
import { RUN_REF_FORMS, resolveRunRef } from '../../history/index.js';
import { datasetFromRun, refuseStoreOutput } from '../../review/index.js';
import { RunStore } from '../../store/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { assertWritableFile } from '../report-output.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';

const options = {
  ...commonOptions,
  output: { type: 'string', short: 'o', value: '<file.jsonl>', description: 'The dataset file to append to (created when missing)' },
  failed: { type: 'boolean', description: 'Only rows that errored or failed an eval (--eval: that eval)' },
  labelled: { type: 'boolean', description: 'Only rows a person labelled (--eval: on that eval)' },
  eval: { type: 'string', value: '<name>', description: 'Narrow --failed and --labelled to one eval' },
  expected: { type: 'string', value: 'output', description: 'Take the output a reviewer accepted (labelled pass) as expected_output' },
} satisfies OptionTable;

const help = {
  usage: 'agentmark dataset from-run <run> -o <file.jsonl> [--failed] [--labelled] [--eval <name>] [--expected output]',
  summary:
    'Appends a run\'s rows to a dataset file in this project\'s format: input, expected_output (the\n' +
    'row\'s own; with --expected output, the output a reviewer accepted), name and tags, the\n' +
    'reviewers\' verdicts as `labels` (so the file is a calibration set), and `source` naming the\n' +
    'run and row. A row the file already holds is not written again.\n' +
    `A run is ${RUN_REF_FORMS}.`,
  options,
};

export async function run(argv: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout.write(renderHelp(help));
    return sub === undefined ? ExitCode.inputError : ExitCode.ok;
  }
  if (sub === 'from-traces') return (await import('./dataset-from-traces.js')).run(rest, io);
  if (sub !== 'from-run') {
    throw new UsageError('USAGE_UNKNOWN_COMMAND', `unknown dataset subcommand "${sub}"`, { hint: 'use `agentmark dataset from-run <run> -o <file.jsonl>` or `agentmark dataset from-traces <file...> -o <file.jsonl>`' });
  }
  const { options: flags, positionals } = parseOptions(rest, options, 'dataset from-run');
  if (flags.help) {
    io.stdout.write(renderHelp(help));
    return ExitCode.ok;
  }
  const [ref, extra] = positionals;
  if (ref === undefined) throw new UsageError('USAGE_MISSING_RUN', 'dataset from-run needs a run', { hint: 'e.g. `agentmark dataset from-run latest --failed -o datasets/regressions.jsonl`' });
  if (extra !== undefined) throw new UsageError('USAGE_BAD_ARGUMENT', `dataset from-run takes one run, got also "${extra}"`);
  if (flags.output === undefined) throw new UsageError('USAGE_MISSING_OUTPUT', 'dataset from-run needs -o <file.jsonl>', { hint: 'the rows are appended to it' });
  if (flags.expected !== undefined && flags.expected !== 'output') throw new UsageError('USAGE_BAD_VALUE', `--expected ${flags.expected}: the only choice is "output"`);
  assertWritableFile('-o', flags.output, io.cwd);
  const project = await openProject(flags.project, io.cwd);
  const store = new RunStore(project.root);
  const stored = await resolveRunRef(ref, { projectRoot: project.root, cwd: io.cwd, store, ...runRefStore(project, io) });
  const path = resolve(io.cwd, flags.output);
  await refuseStoreOutput('-o', flags.output, path, { agentmarkDir: join(project.root, '.agentmark'), runDir: stored.dir });
  const result = await datasetFromRun(
    stored,
    path,
    {
      ...(flags.failed ? { failed: true } : {}),
      ...(flags.labelled ? { labelled: true } : {}),
      ...(flags.eval === undefined ? {} : { eval: flags.eval }),
      ...(flags.expected === 'output' ? { expected: 'output' as const } : {}),
    },
    store,
  );
  const skipped = result.skipped > 0 ? `; ${result.skipped} already in the file` : '';
  io.stderr.write(`Wrote ${result.written} row${result.written === 1 ? '' : 's'} to ${relative(io.cwd, path)} from run ${stored.manifest.id}${skipped}\n`);
  return ExitCode.ok;
}
