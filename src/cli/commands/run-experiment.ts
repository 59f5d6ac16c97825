import { relative } from 'node:path';
import { listRows, runExperiment } from '../../experiment/index.js';
import { teamStoreRef } from '../open-store.js';
import { loadConfig } from '../../project/index.js';
import { isAgentmarkError, UsageError, type AgentmarkError } from '../../errors/index.js';
import { formatRowList, writeCsv, writeJson, writeJunit, type FinishedRun, type Reporter, type ReporterName } from '../../report/index.js';
import { printError } from '../print-error.js';
import { attachReporters } from '../attach-reporters.js';
import { LARGE_RUN } from '../../report/large-run.js';
import { tuneHeapForRun } from '../heap-tuning.js';
import { openProject, resolvePromptPaths } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import { interruptedMessage } from '../interrupted-message.js';
import { resumeCommand, resumeSettings } from '../resume-settings.js';
import { RunStore } from '../../store/index.js';
import { join } from 'node:path';
import { emptyTally, overallLine } from '../overall-line.js';
import type { CliIO, OutStream } from '../io.js';
import { parseOptions } from '../options.js';
import { openReportOutput } from '../report-output.js';
import { runOptions } from '../run-options.js';
import { modelsFromFlags, runSettingsFromFlags } from '../run-settings.js';
import { checkModels, compareWithFirst, experimentsOf, runsGrid, type FinishedExperiment } from '../side-by-side.js';
import { promptModelsOf } from '../prompt-models.js';
import type { BaselineFlags } from '../baseline.js';
import { loadPrompt } from '../../prompt/index.js';
import type { CompareResult } from '../../compare/index.js';
import type { RunListener } from '../../experiment/events.js';
import { startViewer } from '../view-server.js';
import { startOtel } from '../otel-export.js';
import { traceStartup } from '../../startup-trace.js';
import { parseShardGroup, SHARD_GROUP_ENV } from '../../shard/shard-group.js';

const help = {
  usage: 'agentmark run-experiment <prompt files or folders...> [options]',
  summary:
    'Runs each prompt over every row of its dataset with a real model, scores each row with the\n' +
    'prompt\'s evals, and reports. Responses are cached under .agentmark/cache (looked up after the\n' +
    'replayDir of agentmark.json, if any, which is only read); every run is kept under\n' +
    '.agentmark/runs/<run-id>/ and can be resumed.',
  options: runOptions,
  details:
    'Gates: exit 1 when an eval did not pass or a row errored (or, with --threshold, when the\n' +
    'pass rate is below it), or when a score_thresholds minimum is missed; 0 when all passed.\n' +
    'With --baseline these gates still apply, so a run that improved on its baseline but has a\n' +
    'failing row exits 1; --gate regression gates on the comparison alone (regressed exits 1,\n' +
    'and inconclusive too with --fail-on-inconclusive). No row in common with the baseline: exit 2.',
};

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options, positionals } = parseOptions(argv, runOptions, 'run-experiment');
  if (options.help) {
    io.stdout.write(renderHelp(help));
    return ExitCode.ok;
  }
  if (options.list && options.watch) throw new UsageError('USAGE_CONFLICT', '--list and --watch cannot be used together');
  if (options.watch && options.otel) throw new UsageError('USAGE_CONFLICT', '--otel and --watch cannot be used together', { hint: 'export a watched run afterwards with `agentmark runs export latest --otel`' });
  if (options.watch) {
    const watch = await import('./watch.js');
    return watch.run(argv.filter((arg) => arg !== '--watch' && arg !== '-w'), io);
  }
  if (positionals.length === 0 && options.resume === undefined) {
    throw new UsageError('USAGE_MISSING_PROMPT', 'run-experiment needs a prompt file or folder', {
      hint: 'e.g. `agentmark run-experiment prompts/support.prompt.mdx`, or `--resume <run-id>` to continue a run',
    });
  }
  const settings = runSettingsFromFlags(options);
  const envGroup = io.env[SHARD_GROUP_ENV];
  if (settings.run.shard && settings.run.shardGroup === undefined && envGroup !== undefined && envGroup.trim() !== '') settings.run.shardGroup = parseShardGroup(envGroup, SHARD_GROUP_ENV);
  // With several prompts, json, junit and csv are one document for all of them, written at the
  // end from the runs' results files; each run's own report is not written.
  const format = settings.report.format;
  const project = await openProject(options.project, io.cwd, positionals[0]);
  // --resume alone: the prompt and the options come from the run's manifest.
  const resumed = options.resume === undefined ? undefined : await new RunStore(project.root).manifest(options.resume);
  if (resumed) settings.run = resumeSettings(resumed, options, settings.run);
  const promptPaths = resumed && positionals.length === 0 ? [join(project.root, resumed.prompt.path)] : await resolvePromptPaths(positionals, io.cwd, project);
  if (settings.run.resume !== undefined && promptPaths.length > 1) {
    throw new UsageError('USAGE_CONFLICT', '--resume continues one run: give the one prompt it ran, or none');
  }
  const models = modelsFromFlags(options.model);
  // Without --model, a prompt's test_settings.models runs it once per model, as repeated --model flags do.
  const promptModels = models.length > 0 ? new Map<string, string[]>() : await promptModelsOf(promptPaths);
  const sideBySide = models.length > 1 || [...promptModels.values()].some((list) => list.length > 1) || (options['side-by-side'] ?? false);
  if (options['side-by-side'] && promptPaths.length < 2) {
    throw new UsageError('USAGE_CONFLICT', '--side-by-side compares several prompts: give two or more', { hint: 'for several models, repeat --model instead' });
  }
  if (sideBySide && (settings.run.resume !== undefined || options.watch)) throw new UsageError('USAGE_CONFLICT', 'several models or --side-by-side cannot be resumed or watched');
  const baselineFlags = baselineFlagsOf(options, sideBySide);
  const gate = gateOf(options.gate, baselineFlags);
  // Loaded only for a run with a baseline: the comparison is no part of a plain run's start-up.
  const { baselineFailed, compareAtRunEnd, findBaseline } = baselineFlags ? await import('../baseline.js') : noBaseline;
  traceStartup('project opened');
  const config = await loadConfig(project, { client: true, fsCache: true });
  traceStartup('config loaded');
  for (const warning of config.warnings ?? []) io.stderr.write(`warning: ${warning}\n`);
  checkModels(models, config, project.root);
  for (const [path, list] of promptModels) checkModels(list, config, project.root, (model) => `test_settings.models ${model} of ${relative(io.cwd, path)}`);
  const experiments = experimentsOf(promptPaths, models, project, promptModels);
  if (options.list) {
    // Runs nothing: the same plan as a run (filter, then sampling), printed.
    for (const promptPath of promptPaths) io.stdout.write(formatRowList(await listRows({ ...settings.run, project, config, promptPath, signal: io.signal }), io.stdout.columns !== undefined && io.stdout.columns > 0 ? io.stdout.columns : undefined));
    return ExitCode.ok;
  }
  if (format === 'html' && experiments.length > 1) {
    throw new UsageError('USAGE_CONFLICT', '--format html writes the report of one run: give one prompt and one model', {
      hint: 'run each prompt with its own -o <file>.html',
    });
  }
  const otel = await startOtel(options, io.env, project.root, config);
  const finished: FinishedExperiment[] = [];
  const viewer = options.view ? await startViewer(project.root, { port: options['view-port'] ?? 4848 }, io.stderr) : undefined;
  if (viewer) io.stderr.write(`viewer: ${viewer.url}\n`);
  const output = openReportOutput(settings.report.output, io.cwd, io.stdout);
  let code: number = ExitCode.ok;
  let interruptedRun: string | undefined;
  const tally = emptyTally();
  const combined: FinishedRun[] | undefined = experiments.length > 1 && (format === 'json' || format === 'junit' || format === 'csv') ? [] : undefined;
  const collect: Reporter | undefined = combined && { onRunEnd: (summary, info, rows) => void combined.push({ summary, info, rows }) };
  try {
    // Several models run one after another, so they share the one --concurrency limit.
    for (const { promptPath, model, label } of experiments) {
      if (io.signal.aborted) break;
      // Side by side, the set is large above 50 rows in all: each run's table then lists what failed.
      const largeRun = sideBySide ? Math.floor(LARGE_RUN / experiments.length) : undefined;
      let report = attachReporters(settings.report, output.stream, io.stderr, { cwd: io.cwd, columns: io.stdout.columns, report: collect, withPrompt: experiments.length > 1, ...(largeRun === undefined ? {} : { largeRun }) });
      let comparison: CompareResult | undefined;
      let noComparison: AgentmarkError | undefined;
      try {
        // The baseline is found before the run, so an unknown one is exit 2 before any call.
        const prompt = baselineFlags ? await loadPrompt(promptPath, { project, filters: config.filters }) : undefined;
        const baseline = baselineFlags && prompt ? await findBaseline(baselineFlags, project, io, prompt) : undefined;
        if (baseline) report = compareAtRunEnd(report, baseline, (result) => (comparison = result), (error) => (noComparison = error));
        const outcome = await runExperiment({
          ...settings.run,
          ...(model === undefined ? {} : { model }),
          ...(prompt ? { prompt } : {}),
          project,
          config,
          promptPath,
          ...teamStoreRef(project, io.env),
          signal: io.signal,
          env: io.env,
          onEvent: (otel ? otel.wrap : (listener: RunListener) => listener)((event) => {
            if (event.type === 'run-start') {
              tuneHeapForRun(event.info.total);
              output.start();
            }
            return report(event);
          }),
        });
        if (outcome.status === 'completed') finished.push({ label, runId: outcome.runId, runDir: outcome.runDir, summary: outcome.summary });
        const storeUrl = settings.run.shard && outcome.status === 'completed' ? teamStoreRef(project, io.env).storeUrl : undefined;
        if (storeUrl !== undefined) {
          // Loaded only for a shard run with a team store.
          const { mergeIfLast } = await import('../../shard/auto-merge.js');
          const line = await mergeIfLast(outcome.runId, { projectRoot: project.root, storeUrl });
          if (line !== undefined) io.stderr.write(`${line}\n`);
        }
        // --gate regression: the run's own gates (evals, errors, thresholds) only report.
        const runFailed = !outcome.summary.passed && gate === 'all';
        if (outcome.status === 'interrupted') interruptedRun = outcome.runId;
        else if (runFailed && code === ExitCode.ok) code = ExitCode.gateFailed;
        const compareFailed = comparison !== undefined && baselineFailed(comparison, baselineFlags?.failOnInconclusive ?? false);
        if (comparison) {
          // The table shows the comparison; other formats are for machines, so say it on stderr.
          if (settings.report.format !== 'table') io.stderr.write(`baseline ${comparison.base.id}: ${comparison.gate.message}\n`);
          if (comparison.pairing.warning !== undefined && settings.report.format !== 'table') io.stderr.write(`warning: ${comparison.pairing.warning}\n`);
          if (compareFailed && code === ExitCode.ok) code = ExitCode.gateFailed;
        }
        // No row in common with the baseline: nothing was compared, which no gate may call a pass.
        if (noComparison) {
          printError(noComparison, io.stderr, io.cwd);
          code = ExitCode.inputError;
        }
        tally.rows += outcome.summary.rows;
        tally.errored += outcome.summary.errored;
        if (outcome.status === 'interrupted') tally.interrupted += 1;
        else if (!runFailed && !compareFailed && noComparison === undefined) tally.passed += 1;
        else tally.failed += 1;
      } catch (error) {
        // One broken prompt among several: say so and go on with the others; exit 2 at the end.
        // An unreachable server stops them all: the next would only find it gone too.
        if (experiments.length === 1 || !isAgentmarkError(error) || error.code === 'MODEL_UNREACHABLE') throw error;
        printError(error, io.stderr, io.cwd);
        code = ExitCode.inputError;
        tally.broken += 1;
      }
    }
    if (sideBySide && finished.length > 1 && !io.signal.aborted) {
      const comparisons = await compareWithFirst(finished, options.alpha ?? 0.05);
      if (format === 'table') {
        const { formatSideBySide } = await import('../../report/compare/index.js');
        const width = output.stream.columns !== undefined && output.stream.columns > 0 ? output.stream.columns : undefined;
        output.stream.write(`\n${formatSideBySide(finished, comparisons, width)}`);
        output.stream.write(`\n${await runsGrid(finished, comparisons, { truncate: settings.report.truncate, allRows: settings.report.allRows === true || settings.report.output !== undefined, ...(width === undefined ? {} : { width }) })}`);
      }
      // json: each run's document carries its comparison with the first.
      for (const run of combined ?? []) {
        const comparison = comparisons.find((c) => c.head.id === run.info.runId);
        if (comparison) run.info = { ...run.info, comparison };
      }
    }
  } finally {
    if (combined && combined.length > 0) await writeCombined(format, output.stream, combined);
    output.close();
    await otel?.finish(io.stderr);
  }
  if (io.signal.aborted) code = ExitCode.interrupted;
  if (experiments.length > 1) {
    // The table is for people, so its last line is the verdict; other formats keep stdout parseable.
    const line = overallLine(tally, code, experiments.length);
    if (format === 'table' && settings.report.output === undefined && !io.signal.aborted) io.stdout.write(`\n${line}`);
    else if (!settings.report.quiet) io.stderr.write(line);
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
    io.stderr.write(interruptedMessage(io.signal, interruptedRun && resumeCommand('run-experiment', argv, positionals, interruptedRun, project.root, io.cwd)));
    return ExitCode.interrupted;
  }
  return code;
}

/** Without a baseline nothing is compared: these are never called (see baselineFlagsOf). */
const noBaseline = {
  findBaseline: (): Promise<undefined> => Promise.resolve(undefined),
  compareAtRunEnd: (listener: RunListener): RunListener => listener,
  baselineFailed: (): boolean => false,
};

/** `--gate`: what decides the exit code. `regression` needs a baseline to gate on. */
function gateOf(value: string | undefined, baseline: BaselineFlags | undefined): 'all' | 'regression' {
  const gate = value ?? 'all';
  if (gate !== 'all' && gate !== 'regression') throw new UsageError('USAGE_BAD_VALUE', `--gate ${gate}: expected all or regression`);
  if (gate === 'regression' && baseline === undefined) {
    throw new UsageError('USAGE_CONFLICT', '--gate regression gates on the baseline comparison alone', { hint: 'add --baseline <run>' });
  }
  return gate;
}

function baselineFlagsOf(options: ReturnType<typeof parseOptions<typeof runOptions>>['options'], sideBySide: boolean): BaselineFlags | undefined {
  if (options.baseline !== undefined && options['baseline-commit'] !== undefined) {
    throw new UsageError('USAGE_CONFLICT', '--baseline and --baseline-commit cannot be used together', { hint: '--baseline-commit <ref> is --baseline @<ref> plus the regression_tolerance check' });
  }
  if (options.baseline === undefined && options['baseline-commit'] === undefined) {
    if (options['max-drop'] !== undefined || options['fail-on-inconclusive'] || (options.alpha !== undefined && !sideBySide)) {
      throw new UsageError('USAGE_CONFLICT', '--alpha, --max-drop and --fail-on-inconclusive apply to a baseline comparison', { hint: 'add --baseline <run>' });
    }
    return undefined;
  }
  return {
    ...(options.baseline === undefined ? {} : { baseline: options.baseline }),
    ...(options['baseline-commit'] === undefined ? {} : { baselineCommit: options['baseline-commit'] }),
    alpha: options.alpha ?? 0.05,
    failOnInconclusive: options['fail-on-inconclusive'] ?? false,
    ...(options['max-drop'] === undefined ? {} : { maxDrop: options['max-drop'] }),
  };
}

/** Several runs as one document of a whole-run format. */
function writeCombined(format: ReporterName, out: OutStream, runs: FinishedRun[]): Promise<void> {
  if (format === 'json') return writeJson(out, runs);
  if (format === 'junit') return writeJunit(out, runs);
  return writeCsv(out, runs);
}
