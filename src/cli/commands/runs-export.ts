import { UsageError } from '../../errors/index.js';
import { resolveRunRef } from '../../history/index.js';
import { loadConfig, type LoadedConfig } from '../../project/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { projectPath } from '../project-path.js';
import { runOptions } from '../run-options.js';

const options = {
  ...commonOptions,
  otel: { type: 'boolean', description: 'Send the run as an OpenTelemetry trace over OTLP/HTTP (OTEL_EXPORTER_OTLP_* variables; see docs/otel.md)' },
  'otel-content': runOptions['otel-content'],
  'otel-timeout': { ...runOptions['otel-timeout'], description: 'How long to wait for the collector at the end' },
  'otel-trace-per': runOptions['otel-trace-per'],
  prompt: { type: 'string', value: '<path>', description: '`latest`, `@<git-ref>`, `branch:<name>` and `commit:<sha>` mean runs of this prompt' },
} satisfies OptionTable;

/** `agentmark runs export <run> --otel`: a stored run as the trace its live export would have sent. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags, positionals } = parseOptions(argv, options, 'runs export');
  if (flags.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark runs export <run> --otel [--otel-content] [--otel-trace-per run|row] [--otel-timeout <seconds>]',
        summary:
          "Sends a past run as one OpenTelemetry trace, with the run's and rows' original times, so\n" +
          'history can be back-filled into Langfuse, Phoenix, Jaeger or Grafana. Exit 1 when spans\ndid not get out (one warning line says how many).',
        options,
      }),
    );
    return ExitCode.ok;
  }
  const [ref, extra] = positionals;
  if (ref === undefined) throw new UsageError('USAGE_MISSING_RUN', 'runs export needs a run', { hint: 'e.g. `agentmark runs export latest --otel`' });
  if (extra !== undefined) throw new UsageError('USAGE_BAD_ARGUMENT', `runs export takes one run, got also "${extra}"`);
  if (!flags.otel) throw new UsageError('USAGE_MISSING_TARGET', 'runs export needs a target', { hint: 'add --otel (the OTLP endpoint comes from OTEL_EXPORTER_OTLP_ENDPOINT)' });
  const project = await openProject(flags.project, io.cwd);
  const stored = await resolveRunRef(ref, {
    projectRoot: project.root,
    cwd: io.cwd,
    ...(flags.prompt === undefined ? {} : { prompt: projectPath(project, io.cwd, flags.prompt) }),
  });
  const { exportStoredRun, resolveOtelSettings } = await import('../../otel/index.js');
  const settings = resolveOtelSettings(io.env, {
    ...(flags['otel-timeout'] === undefined ? {} : { timeoutMs: Math.round(flags['otel-timeout'] * 1000) }),
    ...(flags['otel-content'] ? { content: true } : {}),
    ...(flags['otel-trace-per'] === undefined ? {} : { tracePer: flags['otel-trace-per'] }),
  });
  // Only for the judge's model and the OpenAI base URL: a config that no longer loads costs those attributes, not the export.
  const config: LoadedConfig | undefined = await loadConfig(project, { fsCache: true }).catch(() => undefined);
  const { spans, warning } = await exportStoredRun(stored, {
    settings,
    projectRoot: project.root,
    env: io.env,
    judgeModel: config?.judgeModel,
    baseURL: config?.baseURL,
  });
  if (warning !== undefined) {
    io.stderr.write(`warning: ${warning}\n`);
    return ExitCode.gateFailed;
  }
  io.stdout.write(`exported run ${stored.manifest.id}: ${spans} spans to ${new URL(settings.url).origin}${new URL(settings.url).pathname}\n`);
  return ExitCode.ok;
}
