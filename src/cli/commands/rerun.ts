import { runExperiment } from '../../experiment/index.js';
import { runRefStore, teamStoreRef } from '../open-store.js';
import { UsageError } from '../../errors/index.js';
import { RUN_REF_FORMS, resolveRunRef } from '../../history/index.js';
import { loadConfig } from '../../project/index.js';
import { attachReporters } from '../attach-reporters.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import { interruptedMessage } from '../interrupted-message.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { projectPath } from '../project-path.js';
import { openReportOutput } from '../report-output.js';
import { reportFormat } from '../report-format.js';
import { runOptions } from '../run-options.js';
import { startOtel } from '../otel-export.js';

export const rerunOptions = {
  ...commonOptions,
  'cache-only': { type: 'boolean', description: 'Never call a model: every answer from the response cache (a missing one is an errored row)' },
  format: { type: 'string', value: '<fmt>', description: "table, json, jsonl, csv, junit, markdown or html (default: from the -o file's extension, else table)" },
  output: { type: 'string', short: 'o', value: '<file>', description: 'Write the report to a file; the summary, verdict and path go to stderr' },
  truncate: { type: 'integer', value: '<n>', min: 0, default: 1000, description: 'Cut table cells to n characters (0: never)' },
  quiet: { type: 'boolean', short: 'q', description: 'No progress output on stderr' },
  prompt: { type: 'string', value: '<path>', description: '`latest`, `@<git-ref>`, `branch:<name>` and `commit:<sha>` mean runs of this prompt' },
  otel: runOptions.otel,
  'otel-content': runOptions['otel-content'],
  'otel-timeout': runOptions['otel-timeout'],
  'otel-trace-per': runOptions['otel-trace-per'],
} satisfies OptionTable;

const help = {
  usage: 'agentmark rerun <run> [options]',
  summary:
    'Runs the prompt a past run stored (with its components) again, over the same rows (selection,\n' +
    'sample, shard, repeats) with the same model and settings, as a new run; answers come from the\n' +
    'response cache as before. Refused (exit 2) when the dataset changed since.\n' +
    `A run is ${RUN_REF_FORMS}.`,
  options: rerunOptions,
  details: 'Exit codes as run-experiment: 0 all gates passed, 1 a gate failed, 2 usage or input error, 130 interrupted.',
};

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options, positionals } = parseOptions(argv, rerunOptions, 'rerun');
  if (options.help) {
    io.stdout.write(renderHelp(help));
    return ExitCode.ok;
  }
  const [ref, extra] = positionals;
  if (ref === undefined) throw new UsageError('USAGE_MISSING_RUN', 'rerun needs a run', { hint: 'e.g. `agentmark rerun latest`' });
  if (extra !== undefined) throw new UsageError('USAGE_BAD_ARGUMENT', `rerun takes one run, got also "${extra}"`);
  const format = reportFormat(options.format, options.output);
  const project = await openProject(options.project, io.cwd);
  const stored = await resolveRunRef(ref, {
    projectRoot: project.root,
    cwd: io.cwd,
    ...runRefStore(project, io),
    ...(options.prompt === undefined ? {} : { prompt: projectPath(project, io.cwd, options.prompt) }),
  });
  const config = await loadConfig(project, { client: true, fsCache: true });
  for (const warning of config.warnings ?? []) io.stderr.write(`warning: ${warning}\n`);
  const { changedConfig, rerunOptions: optionsOf } = await import('../../provenance/rerun-options.js');
  const rerun = await optionsOf(project, config, stored);
  for (const file of await changedConfig(project.root, stored)) {
    io.stderr.write(`warning: ${file} changed since run ${stored.manifest.id}: the rerun uses today's (scorers, score schemas, filters)\n`);
  }
  const report = { format, truncate: options.truncate ?? 1000, quiet: options.quiet ?? false, ...(options.output === undefined ? {} : { output: options.output }) };
  if (!report.quiet) io.stderr.write(`rerun of ${stored.manifest.id}: ${stored.manifest.prompt.path} as that run stored it\n`);
  const otel = await startOtel(options, io.env, project.root, config);
  const output = openReportOutput(report.output, io.cwd, io.stdout);
  let outcome;
  try {
    const attached = attachReporters(report, output.stream, io.stderr, { cwd: io.cwd, columns: io.stdout.columns });
    const listener = otel ? otel.wrap(attached) : attached;
    outcome = await runExperiment({
      ...rerun,
      ...(options['cache-only'] ? { cacheMode: 'only' as const } : {}),
      ...teamStoreRef(project, io.env),
      signal: io.signal,
      env: io.env,
      onEvent: (event) => {
        if (event.type === 'run-start') output.start();
        return listener(event);
      },
    });
  } finally {
    output.close();
    await otel?.finish(io.stderr);
  }
  if (io.signal.aborted || outcome.status === 'interrupted') {
    io.stderr.write(interruptedMessage(io.signal, undefined));
    return ExitCode.interrupted;
  }
  return outcome.summary.passed ? ExitCode.ok : ExitCode.gateFailed;
}
