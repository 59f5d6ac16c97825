import { relative } from 'node:path';
import { MissingProps } from './missing-props.js';
import { UsageError } from '../errors/index.js';
import { loadPrompt } from '../prompt/index.js';
import { bindEvals, ROW_SCORE, type BindContext, type BoundEval } from '../scoring/index.js';
import { RowEvalCollector } from './row-eval-binder.js';
import { snapshotRun } from '../provenance/index.js';
import { fileHasher, gitInfo, RunStore } from '../store/index.js';
import { CircuitBreaker } from './circuit-breaker.js';
import type { RunListener } from './events.js';
import { planRows } from './plan-rows.js';
import { httpThreadWarmer } from './dispatch-rows.js';
import { createModelCaller } from './model-caller.js';
import { openRun } from './open-run.js';
import type { RunExperimentOptions } from './options.js';
import { datasetOf } from './prompt-dataset.js';
import { bothChecks, verdictCheck } from './check-verdicts.js';
import { resolveAgent } from '../agent/index.js';
import { agentRunner } from './agent-runner.js';
import { failureRecord } from './failure-record.js';
import type { ExperimentOutcome } from './opened-run-context.js';
import { runOpened } from './run-opened.js';
import { KeyRefusal } from './key-refusal.js';
import { traceStartup } from '../startup-trace.js';
import { promptBindContext } from './prompt-bind-context.js';
import { conversationSetup } from './conversation-setup.js';
import { StoreMirror } from '../store/transfer/store-mirror.js';
import type { RunManifest } from '../store/index.js';

/** Records the run's end in the team store; says how long the store lagged when it did. */
async function endMirror(mirror: StoreMirror, manifest: RunManifest, emit: (event: { type: 'warning'; message: string }) => unknown): Promise<void> {
  const end = await mirror.finish(manifest);
  if (end.laggedMs > 0) await emit({ type: 'warning', message: `the team store lagged ${(end.laggedMs / 1000).toFixed(1)} s behind the local files (its connection was lost)${end.stored ? '; it has caught up' : ''}` });
}

export type { ExperimentOutcome };

/**
 * Runs one prompt over its dataset: binds the evals before any model call, streams rows
 * through a pool of workers, appends each finished row to the run store, and returns the
 * summary with its gates. Prints nothing: listeners get typed events.
 */
export async function runExperiment(options: RunExperimentOptions): Promise<ExperimentOutcome> {
  const { project, config } = options;
  const emit: RunListener = options.onEvent ?? (() => {});
  const now = options.now ?? Date.now;
  // Git (two child processes; `status` is slow in a big tree) runs while the prompt loads.
  const git = options.resume ? undefined : gitInfo(project.root);
  const prompt = options.prompt ?? (await loadPrompt(options.promptPath, { project, filters: config.filters }));
  traceStartup('prompt loaded');
  if (prompt.kind !== 'text' && prompt.kind !== 'object') {
    throw new UsageError('USAGE_UNSUPPORTED_PROMPT', `${prompt.kind} experiments are not supported yet: this is an ${prompt.kind}_config prompt, and only text_config and object_config prompts are run`, {
      location: { file: relative(project.root, prompt.path) },
      hint: `\`agentmark render\` and \`agentmark validate\` work on ${prompt.kind} prompts`,
    });
  }
  // The simulator loads, and turn evals are named, before anything else can fail later.
  const conversation = await conversationSetup(options, prompt);
  const promptEvalNames = options.skipEval ? [] : (prompt.testSettings.evals ?? []);

  // Before any provider is resolved: an unknown agent name is the user's mistake, said first.
  const agent = resolveAgent(config.agents, options.agent, prompt);
  if (agent !== undefined && options.batch) {
    throw new UsageError('USAGE_CONFLICT', `--batch sends one request per row, but agent "${agent.name}" runs the rows in code`, { hint: 'drop --batch to run the agent' });
  }
  const datasetPath = datasetOf(options.datasetPath ?? prompt.testSettings.dataset, prompt, project, options.datasetPath === undefined);
  // Opens when the server cannot be reached, or refuses the key; `halt` then stops the run (see runOpened).
  const halt = new AbortController();
  const breaker = new CircuitBreaker(() => halt.abort());
  const refusal = new KeyRefusal(() => halt.abort());
  const caller = await createModelCaller(options, prompt, breaker);
  traceStartup('model caller created');
  const bindContext: BindContext = {
    ...promptBindContext(project, config, prompt),
    judge: caller.judge,
    embed: caller.embed,
    judgeModel: options.judgeModel ?? config.judgeModel,
    // User scorers then run in worker threads, where one that never returns can be stopped.
    // A project with only an AgentMark client has no config file: the worker loads the client.
    configFile: config.path ?? config.client?.path,
    concurrency: options.concurrency ?? 20,
  };

  const bound = await bindEvals(promptEvalNames, bindContext);
  const turnBound = await conversation.bindTurnEvals(bindContext);
  traceStartup('evals bound');
  if (options.batch) {
    const { checkBatchable } = await import('../batch/index.js');
    checkBatchable({
      prompt,
      modelName: caller.modelName,
      customProviders: Object.keys(config.providers ?? {}),
      evals: bound.evals,
      judgeLive: options.batch.judgeLive ?? false,
      judgeModel: options.judgeModel ?? config.judgeModel,
      cacheMode: options.cacheMode ?? 'use',
      env: options.env ?? process.env,
    });
  }

  for (const warning of prompt.warnings) {
    const where = [relative(project.root, warning.file), warning.line, warning.column].filter((p) => p !== undefined).join(':');
    await emit({ type: 'warning', message: `${where}: ${warning.message}` });
  }
  for (const message of [...bound.warnings, ...turnBound.warnings]) await emit({ type: 'warning', message });

  const store = new RunStore(project.root);
  const rowCollector = new RowEvalCollector();
  // The check reads the whole file; the run's fingerprint of it is hashed in that same read.
  const hasher = fileHasher(project.root, datasetPath);
  // A label may name any eval the prompt declares (even under --skip-eval) or any scorer the
  // config registers: a calibration set shared by prompts is not wrong for naming the others'.
  const verdicts = verdictCheck(relative(project.root, datasetPath), [...(prompt.testSettings.evals ?? []), ...Object.keys(config.scorers ?? {})], project.scores);
  const missing = new MissingProps(prompt);
  const countRow = httpThreadWarmer(options);
  const plan = await planRows({
    datasetPath,
    projectRoot: project.root,
    inputSchema: prompt.inputSchema,
    checkRow: bothChecks(
      (row) => {
        countRow?.();
        missing.add(row);
        return verdicts(row);
      },
      bothChecks(rowCollector.check, await conversation.rowCheck(relative(project.root, datasetPath), datasetPath)),
    ),
    onChunk: hasher.update,
    ...pick(options, 'selection', 'filter', 'onlyIndexes', 'signal'),
  });
  for (const message of missing.warnings(project.root, datasetPath)) await emit({ type: 'warning', message });
  const dataset = hasher.digest();
  traceStartup('dataset checked and hashed');
  const rowEvals = options.skipEval || rowCollector.empty ? undefined : await rowCollector.bind(bound.evals, bindContext, { path: datasetPath, file: relative(project.root, datasetPath) }).catch(async (error: unknown) => {
    await bound.close();
    throw error;
  });
  // The turn evals' names end the list (the conversation's summaries), after the rows' own.
  const evalNames = [...promptEvalNames, ...(rowEvals?.rowOnly ?? []), ...conversation.turnEvalNames];
  const evals = [...bound.evals, ...(rowEvals?.bound ?? [])];
  checkThreshold(options, evalNames, [...evals, ...turnBound.evals]);
  const provenance = () => snapshotRun({ projectRoot: project.root, prompt, projectFile: project.configPath, configFile: config.path, rerunOf: options.rerunOf });
  const opened = await openRun(store, options, { prompt, caller, dataset, git, provenance });
  const { handle } = opened;
  traceStartup('run opened');
  const mirror = options.storeUrl === undefined ? undefined : await StoreMirror.start(options.storeUrl, project.root, handle.dir, handle.manifest, { warn: (message) => void emit({ type: 'warning', message }) });
  try {
    const runner = agent === undefined ? undefined : await agentRunner(agent, options, prompt, caller);
    const turns = { settings: conversation.settings, turnEvals: turnBound.evals };
    const outcome = await runOpened({ options, prompt, caller, runner, evalNames, evals, conversation: turns, ...(rowEvals === undefined ? {} : { rowEvals }), breaker, refusal, halt: halt.signal, datasetPath, plan, opened });
    if (mirror !== undefined) await endMirror(mirror, handle.manifest, emit);
    return outcome;
  } catch (error) {
    await mirror?.stop();
    // Whatever broke (a reporter, the disk), the run must not stay "running" for ever.
    if (handle.manifest.status === 'running') {
      await handle.updateManifest({ status: 'failed', endedAt: new Date(now()).toISOString(), failure: failureRecord(error) }).catch(() => undefined);
    }
    throw error;
  } finally {
    // Stops the scorer workers too: a scorer still running when the run ends is cut off.
    await bound.close();
    await turnBound.close();
    await rowEvals?.close();
    await caller.close();
    // Also releases the run's lock, on every way out.
    await handle.close();
  }
}

/** Known before any call: `--threshold` needs evals, and evals that give verdicts (numeric scores never carry `passed`). */
function checkThreshold(options: RunExperimentOptions, evalNames: readonly string[], evals: readonly BoundEval[]): void {
  if (options.threshold === undefined) return;
  if (evalNames.length === 0) {
    throw new UsageError('USAGE_THRESHOLD_WITHOUT_EVALS', '--threshold needs evals that report passed, but this run has none', {
      hint: options.skipEval ? 'drop --skip-eval' : 'add evals to test_settings.evals',
    });
  }
  if (evals.every((e) => e.schema?.type === 'numeric') && !evalNames.includes(ROW_SCORE)) {
    throw new UsageError('USAGE_THRESHOLD_WITHOUT_VERDICTS', '--threshold needs an eval that reports passed, but every eval here is numeric', {
      hint: 'gate numeric scores with test_settings.score_thresholds instead',
    });
  }
}

/** The options among `keys` that are set (exactOptionalPropertyTypes forbids passing undefined). */
function pick<T extends object, K extends keyof T>(from: T, ...keys: K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((key) => from[key] !== undefined).map((key) => [key, from[key]])) as Partial<Pick<T, K>>;
}
