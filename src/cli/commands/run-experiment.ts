import { runExperiment } from '../../experiment/index.js';
import { loadConfig } from '../../project/index.js';
import { isAgentmarkError, UsageError } from '../../errors/index.js';
import { writeCsv, writeJson, writeJunit, type FinishedRun, type Reporter, type ReporterName } from '../../report/index.js';
import { printError } from '../print-error.js';
import { attachReporters } from '../attach-reporters.js';
import { tuneHeapForRun } from '../heap-tuning.js';
import { openProject, resolvePromptPaths } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO, OutStream } from '../io.js';
import { parseOptions } from '../options.js';
import { openReportOutput } from '../report-output.js';
import { runOptions } from '../run-options.js';
import { runSettingsFromFlags } from '../run-settings.js';
import { startViewer } from '../view-server.js';

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
  // With several prompts, json, junit and csv are one document for all of them, written at the
  // end from the runs' results files; each run's own report is not written.
  const format = settings.report.format;
  const project = await openProject(options.project, io.cwd, positionals[0]);
  const promptPaths = await resolvePromptPaths(positionals, io.cwd, project);
  if (settings.run.resume !== undefined && promptPaths.length > 1) {
    throw new UsageError('USAGE_CONFLICT', '--resume continues one run: give the one prompt it ran');
  }
  if (format === 'html' && promptPaths.length > 1) {
    throw new UsageError('USAGE_CONFLICT', '--format html writes the report of one run: give one prompt', {
      hint: 'run each prompt with its own -o <file>.html',
    });
  }
  const config = await loadConfig(project);
  const viewer = options.view ? await startViewer(project.root, { port: options['view-port'] ?? 4848 }, io.stderr) : undefined;
  if (viewer) io.stderr.write(`viewer: ${viewer.url}\n`);
  const output = openReportOutput(settings.report.output, io.cwd, io.stdout);
  let code: number = ExitCode.ok;
  let interruptedRun: string | undefined;
  const combined: FinishedRun[] | undefined = promptPaths.length > 1 && (format === 'json' || format === 'junit' || format === 'csv') ? [] : undefined;
  const collect: Reporter | undefined = combined && { onRunEnd: (summary, info, rows) => void combined.push({ summary, info, rows }) };
  try {
    for (const promptPath of promptPaths) {
      if (io.signal.aborted) break;
      const report = attachReporters(settings.report, output.stream, io.stderr, { cwd: io.cwd, report: collect, withPrompt: promptPaths.length > 1 });
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
    }
  } finally {
    if (combined && combined.length > 0) await writeCombined(format, output.stream, combined);
    output.close();
  }
  if (viewer) {
    // The run is over; the viewer stays until Ctrl-C, which here ends the viewing, not the run.
    if (!io.signal.aborted) {
      io.stderr.write(`run finished; the viewer stays at ${viewer.url} until Ctrl-C\n`);
      await new Promise<void>((done) => io.signal.addEventListener('abort', () => done(), { once: true }));
      await viewer.close();
      return code;
    }
    await viewer.close();
  }
  if (io.signal.aborted) {
    const resume = interruptedRun === undefined ? '' : `; continue with --resume ${interruptedRun}`;
    io.stderr.write(`interrupted: finished rows are saved${resume}\n`);
    return ExitCode.interrupted;
  }
  return code;
}

/** Several runs as one document of a whole-run format. */
function writeCombined(format: ReporterName, out: OutStream, runs: FinishedRun[]): Promise<void> {
  if (format === 'json') return writeJson(out, runs);
  if (format === 'junit') return writeJunit(out, runs);
  return writeCsv(out, runs);
}
