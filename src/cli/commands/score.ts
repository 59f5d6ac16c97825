import { resolve } from 'node:path';
import { runExperiment } from '../../experiment/index.js';
import { loadConfig } from '../../project/index.js';
import { UsageError } from '../../errors/index.js';
import { attachReporters } from '../attach-reporters.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import { interruptedMessage } from '../interrupted-message.js';
import { resumeCommand } from '../resume-settings.js';
import type { CliIO } from '../io.js';
import { parseOptions, type OptionTable } from '../options.js';
import { openReportOutput } from '../report-output.js';
import { runOptions } from '../run-options.js';
import { runSettingsFromFlags } from '../run-settings.js';
import { startOtel } from '../otel-export.js';

const { model: _m, timeout: _t, 'max-retries': _r, cache: _c, 'cache-only': _co, watch: _w, 'skip-eval': _s, ...shared } = runOptions;
const options = {
  ...shared,
  outputs: { type: 'string', value: '<file.jsonl>', description: "Rows with an output to score (default: the prompt's dataset)" },
} satisfies OptionTable;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseOptions(argv, options, 'score');
  if (parsed.options.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark score <prompt> [--outputs <file.jsonl>] [options]',
        summary:
          "Runs the prompt's evals on pre-generated outputs: each row of the file (JSONL, the dataset\n" +
          'format) carries `output` next to `input`. No model is called, except by LLM-judge evals.',
        options,
      }),
    );
    return ExitCode.ok;
  }
  const [path, ...extra] = parsed.positionals;
  if (path === undefined || extra.length > 0) {
    throw new UsageError('USAGE_MISSING_PROMPT', 'score takes exactly one prompt file');
  }
  const settings = runSettingsFromFlags(parsed.options);
  const project = await openProject(parsed.options.project, io.cwd, path);
  const config = await loadConfig(project, { client: true, fsCache: true });
  for (const warning of config.warnings ?? []) io.stderr.write(`warning: ${warning}\n`);
  const otel = await startOtel(parsed.options, io.env, project.root, config);
  const output = openReportOutput(settings.report.output, io.cwd, io.stdout);
  const attached = attachReporters(settings.report, output.stream, io.stderr, { cwd: io.cwd, columns: io.stdout.columns });
  const report = otel ? otel.wrap(attached) : attached;
  try {
    const outcome = await runExperiment({
      ...settings.run,
      project,
      config,
      promptPath: resolve(io.cwd, path),
      scoreOnly: true,
      ...(parsed.options.outputs === undefined ? {} : { datasetPath: resolve(io.cwd, parsed.options.outputs) }),
      signal: io.signal,
      env: io.env,
      onEvent: (event) => {
        if (event.type === 'run-start') output.start();
        return report(event);
      },
    });
    if (outcome.status === 'interrupted') {
      io.stderr.write(interruptedMessage(io.signal, resumeCommand('score', argv, [], outcome.runId, project.root, io.cwd)));
      return ExitCode.interrupted;
    }
    return outcome.summary.passed ? ExitCode.ok : ExitCode.gateFailed;
  } finally {
    output.close();
    await otel?.finish(io.stderr);
  }
}
