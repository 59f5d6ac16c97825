import { runExperiment } from '../../experiment/index.js';
import { loadConfig } from '../../project/index.js';
import { isAgentmarkError, UsageError } from '../../errors/index.js';
import { writeCsv, type CsvRun, type Reporter } from '../../report/index.js';
import { combineDocuments } from '../combine-documents.js';
import { printError } from '../print-error.js';
import { attachReporters } from '../attach-reporters.js';
import { tuneHeapForRun } from '../heap-tuning.js';
import { openProject, resolvePromptPaths } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { parseOptions } from '../options.js';
import { openReportOutput } from '../report-output.js';
import { runOptions } from '../run-options.js';
import { runSettingsFromFlags } from '../run-settings.js';

const help = {
  usage: 'agentmark run-experiment <prompt files or folders...> [options]',
  summary:
    'Runs each prompt over every row of its dataset with a real model, scores each row with the\n' +
    'prompt\'s evals, and reports. Responses are cached under .agentmark/cache; every run is kept\n' +
    'under .agentmark/runs/<run-id>/ and can be resumed.',
  options: runOptions,
  details:
    'Gates: exit 1 when an eval did not pass or a row errored (or, with --threshold, when the\n' +
    'pass rate is below it), or when a score_thresholds minimum is missed; 0 when all passed.',
};

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options, positionals } = parseOptions(argv, runOptions, 'run-experiment');
  if (options.help) {
    io.stdout.write(renderHelp(help));
    return ExitCode.ok;
  }
  if (options.watch) {
    const watch = await import('./watch.js');
    return watch.run(argv.filter((arg) => arg !== '--watch' && arg !== '-w'), io);
  }
  if (positionals.length === 0) {
    throw new UsageError('USAGE_MISSING_PROMPT', 'run-experiment needs a prompt file or folder', {
      hint: 'e.g. `agentmark run-experiment prompts/support.prompt.mdx`',
    });
  }
  const settings = runSettingsFromFlags(options);
  const project = await openProject(options.project, io.cwd, positionals[0]);
  const promptPaths = await resolvePromptPaths(positionals, io.cwd, project);
  if (settings.run.resume !== undefined && promptPaths.length > 1) {
    throw new UsageError('USAGE_CONFLICT', '--resume continues one run: give the one prompt it ran');
  }
  const config = await loadConfig(project);
  const output = openReportOutput(settings.report.output, io.cwd, io.stdout);
  let code: number = ExitCode.ok;
  let interruptedRun: string | undefined;
  // Several experiments in a json or junit report are combined into one document at the end.
  const combine = promptPaths.length > 1 && (settings.report.format === 'json' || settings.report.format === 'junit');
  const documents: string[] = [];
  // Several experiments in a csv report become one CSV with a prompt column, written at the end
  // from each run's results file.
  const csvRuns: CsvRun[] | undefined = promptPaths.length > 1 && settings.report.format === 'csv' ? [] : undefined;
  const collectCsv: Reporter | undefined = csvRuns && { onRunEnd: (_summary, info, rows) => void csvRuns.push({ info, rows }) };
  try {
    for (const promptPath of promptPaths) {
      if (io.signal.aborted) break;
      let document = '';
      const stream = combine ? { write: (text: string) => (document += text) } : output.stream;
      const report = attachReporters(settings.report, stream, io.stderr, io.cwd, collectCsv);
      try {
        const outcome = await runExperiment({
          ...settings.run,
          project,
          config,
          promptPath,
          signal: io.signal,
          env: io.env,
          onEvent: (event) => {
            if (event.type === 'run-start') tuneHeapForRun(event.info.total);
            return report(event);
          },
        });
        if (outcome.status === 'interrupted') interruptedRun = outcome.runId;
        else if (!outcome.summary.passed && code === ExitCode.ok) code = ExitCode.gateFailed;
      } catch (error) {
        // One broken prompt among several: say so and go on with the others; exit 2 at the end.
        if (promptPaths.length === 1 || !isAgentmarkError(error)) throw error;
        printError(error, io.stderr, io.cwd);
        code = ExitCode.inputError;
      }
      if (combine && document !== '') documents.push(document);
    }
  } finally {
    if (combine && documents.length > 0) output.stream.write(combineDocuments(settings.report.format, documents));
    if (csvRuns && csvRuns.length > 0) await writeCsv(output.stream, csvRuns);
    output.close();
  }
  if (io.signal.aborted) {
    const resume = interruptedRun === undefined ? '' : `; continue with --resume ${interruptedRun}`;
    io.stderr.write(`interrupted: finished rows are saved${resume}\n`);
    return ExitCode.interrupted;
  }
  return code;
}
