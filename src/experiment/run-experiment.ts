import { relative } from 'node:path';
import { readDataset, selectRows } from '../dataset/index.js';
import { UsageError } from '../errors/index.js';
import { findUnreachableFailure } from '../model/index.js';
import { projectScope } from '../project/path-scope.js';
import { loadPrompt, type LoadedPrompt } from '../prompt/index.js';
import { bindEvals, scoreRanges, type BoundEval } from '../scoring/index.js';
import { selectShard } from '../shard/index.js';
import { snapshotRun } from '../provenance/index.js';
import { fingerprintFile, gitInfo, RunStore } from '../store/index.js';
import { CircuitBreaker, unreachableError } from './circuit-breaker.js';
import type { RunInfo, RunListener, RunStatus } from './events.js';
import { planRows, type RowPlan } from './plan-rows.js';
import { createModelCaller, type ModelCaller } from './model-caller.js';
import { openRun, type OpenedExperiment } from './open-run.js';
import type { RunExperimentOptions } from './options.js';
import type { RowPipeline } from './row-pipeline.js';
import { dispatchRows } from './dispatch-rows.js';
import { stopSignals } from './stop-signals.js';
import { RowRecorder } from './row-recorder.js';
import { datasetOf } from './prompt-dataset.js';
import type { ScoreSchema } from '../project/types.js';
import { RunAccumulator } from './run-summary.js';
import { verdictCheck } from './check-verdicts.js';
import { runHook } from './run-hook.js';
import { runLimitsOf } from './run-limit-gates.js';
import type { RowResult, RunSummary } from './types.js';
import { workItems } from './work-items.js';
import { resolveAgent, type AgentRunner } from '../agent/index.js';
import { agentRunner } from './agent-runner.js';
import { expectedTotal } from './expected-total.js';
import { clientFailureOf } from './client-failure.js';
import { failureRecord } from './failure-record.js';
import { KeyRefusal, keyRefusedError } from './key-refusal.js';

export interface ExperimentOutcome {
  runId: string;
  runDir: string;
  status: RunStatus;
  summary: RunSummary;
  /** Indexes of rows that errored or failed an eval (watch mode reruns these on `f`). */
  failedIndexes: Set<number>;
}

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
  if (prompt.kind !== 'text' && prompt.kind !== 'object') {
    throw new UsageError('USAGE_UNSUPPORTED_PROMPT', `${prompt.kind} experiments are not supported yet: this is an ${prompt.kind}_config prompt, and only text_config and object_config prompts are run`, {
      location: { file: relative(project.root, prompt.path) },
      hint: `\`agentmark render\` and \`agentmark validate\` work on ${prompt.kind} prompts`,
    });
  }
  const evalNames = options.skipEval ? [] : (prompt.testSettings.evals ?? []);
  if (options.threshold !== undefined && evalNames.length === 0) {
    throw new UsageError('USAGE_THRESHOLD_WITHOUT_EVALS', '--threshold needs evals that report passed, but this run has none', {
      hint: options.skipEval ? 'drop --skip-eval' : 'add evals to test_settings.evals',
    });
  }

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
  const bound = await bindEvals(evalNames, {
    scores: project.scores,
    userScorers: config.scorers ?? {},
    promptSchema: prompt.frontmatter.object_config?.schema,
    judge: caller.judge,
    judgeModel: options.judgeModel ?? config.judgeModel,
    projectRoot: project.root,
    promptPath: prompt.path,
    pathScope: projectScope(project),
    evalLocation: (index) => prompt.locate(['test_settings', 'evals', index]),
    projectFile: project.configPath,
    // User scorers then run in worker threads, where one that never returns can be stopped.
    // A project with only an AgentMark client has no config file: the worker loads the client.
    configFile: config.path ?? config.client?.path,
    clientFailure: clientFailureOf(config),
    concurrency: options.concurrency ?? 20,
  });
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
  if (options.threshold !== undefined && bound.evals.every((e) => e.schema?.type === 'numeric')) {
    // Known before any call: numeric scores never carry `passed`, so a pass rate has nothing to count.
    throw new UsageError('USAGE_THRESHOLD_WITHOUT_VERDICTS', '--threshold needs an eval that reports passed, but every eval here is numeric', {
      hint: 'gate numeric scores with test_settings.score_thresholds instead',
    });
  }

  for (const warning of prompt.warnings) {
    const where = [relative(project.root, warning.file), warning.line, warning.column].filter((p) => p !== undefined).join(':');
    await emit({ type: 'warning', message: `${where}: ${warning.message}` });
  }
  for (const message of bound.warnings) await emit({ type: 'warning', message });

  const store = new RunStore(project.root);
  // Both read the whole file; side by side, the hash's reads overlap the rows' parsing.
  const [plan, dataset] = await Promise.all([
    planRows({
      datasetPath,
      projectRoot: project.root,
      inputSchema: prompt.inputSchema,
      checkRow: verdictCheck(relative(project.root, datasetPath), evalNames, project.scores),
      ...pick(options, 'selection', 'filter', 'onlyIndexes', 'signal'),
    }),
    fingerprintFile(project.root, datasetPath),
  ]);
  const provenance = () => snapshotRun({ projectRoot: project.root, prompt, projectFile: project.configPath, configFile: config.path, rerunOf: options.rerunOf });
  const opened = await openRun(store, options, { prompt, caller, dataset, git, provenance });
  const { handle } = opened;
  try {
    const runner = agent === undefined ? undefined : await agentRunner(agent, options, prompt, caller);
    return await runOpened({ options, prompt, caller, runner, evalNames, evals: bound.evals, breaker, refusal, halt: halt.signal, datasetPath, plan, opened });
  } catch (error) {
    // Whatever broke (a reporter, the disk), the run must not stay "running" for ever.
    if (handle.manifest.status === 'running') {
      await handle.updateManifest({ status: 'failed', endedAt: new Date(now()).toISOString(), failure: failureRecord(error) }).catch(() => undefined);
    }
    throw error;
  } finally {
    // Stops the scorer workers too: a scorer still running when the run ends is cut off.
    await bound.close();
    await caller.close();
    // Also releases the run's lock, on every way out.
    await handle.close();
  }
}

interface OpenedRunContext {
  options: RunExperimentOptions;
  prompt: LoadedPrompt;
  caller: ModelCaller;
  /** The config agent that runs the rows, if any. */
  runner: AgentRunner | undefined;
  evalNames: string[];
  evals: BoundEval[];
  breaker: CircuitBreaker;
  refusal: KeyRefusal;
  /** Aborted when the breaker opens or the key is refused. */
  halt: AbortSignal;
  datasetPath: string;
  plan: RowPlan;
  opened: OpenedExperiment;
}

async function runOpened(context: OpenedRunContext): Promise<ExperimentOutcome> {
  const { options, prompt, caller, evalNames, breaker, datasetPath, plan } = context;
  const { handle, done, replay, tookOverFrom } = context.opened;
  const { project, config } = options;
  const emit: RunListener = options.onEvent ?? (() => {});
  const now = options.now ?? Date.now;
  const repeat = options.repeat ?? 1;
  const ungated = context.evals.filter((bound) => bound.schema?.gate === false).map((bound) => bound.name);
  const accumulator = new RunAccumulator(evalNames, repeat, scoreRanges(context.evals), ungated, schemasOf(context.evals));
  if (tookOverFrom) {
    await emit({
      type: 'warning',
      message: `took over run ${handle.id}: its lock was left by process ${tookOverFrom.pid} (started ${tookOverFrom.since}), which is no longer running`,
    });
  }

  const info: RunInfo = {
    runId: handle.id,
    runDir: handle.dir,
    promptPath: relative(project.root, prompt.path),
    promptName: prompt.name,
    model: caller.modelName,
    evalNames,
    // A shard's share of the rows is only known once each row is hashed, as the rows stream.
    ...totalOf(options.shard ? NaN : expectedTotal(plan.selection, plan.datasetRows, plan.only) * repeat - done.size),
    ...(done.size > 0 ? { resumed: done.size } : {}),
  };
  await emit({ type: 'run-start', info });
  const hooks = options.config.hooks ?? {};
  const hookTimeoutMs = options.evalTimeoutMs ?? 30_000;
  const runHookErrors: string[] = [];
  const beforeAll = hooks.beforeAll;
  if (beforeAll) {
    const started = await runHook('beforeAll', () => beforeAll(info), hookTimeoutMs);
    if (!started.ok) {
      runHookErrors.push(started.error);
      await emit({ type: 'warning', message: started.error });
    }
  }
  const rowHooks = hooks.setup || hooks.teardown || hooks.onFail ? { hooks, runId: handle.id, timeoutMs: hookTimeoutMs, emit } : undefined;
  if (replay) {
    for await (const row of replay()) {
      accumulator.add(row);
      await emit({ type: 'row-end', row, replayed: true });
    }
  }

  const signals = stopSignals(options.signal, context.halt, options.graceMs ?? 3000);

  const pipeline: RowPipeline = {
    prompt,
    toRequest: caller.toRequest,
    call: caller.call,
    timeoutMs: caller.timeoutMs,
    // Only judges call a model from an eval; a run without them skips the per-row context.
    ...(context.evals.some((bound) => bound.inline !== true) ? { meterJudges: caller.meterJudges } : {}),
    evals: context.evals,
    evalTimeoutMs: options.evalTimeoutMs ?? 30_000,
    emit,
    scoreOnly: options.scoreOnly ?? false,
    ...(context.runner === undefined ? {} : { agent: context.runner }),
    isUnreachable: (error) => findUnreachableFailure(error) !== undefined,
  };
  const selected = () => {
    const rows = selectRows(readDataset(datasetPath, { inputSchema: prompt.inputSchema }), plan.selection, { total: plan.datasetRows });
    return options.shard ? selectShard(rows, options.shard) : rows;
  };
  const recorder = new RowRecorder(handle, accumulator, emit, now);
  let status: RunStatus = 'completed';
  let failure: unknown;
  try {
    await dispatchRows({
      options,
      handle,
      pipeline,
      caller,
      breaker,
      refusal: context.refusal,
      items: () => workItems(selected(), repeat, done, plan.only),
      retry: context.opened.retry,
      rowHooks,
      record: recorder.record,
      dispatch: signals.dispatch,
      rowSignal: signals.rows,
      emit,
      ...(info.total === undefined ? {} : { expectedRows: info.total }),
    });
  } catch (error) {
    failure = error;
    status = 'failed';
  } finally {
    signals.release();
  }
  try {
    await recorder.settled();
  } catch (error) {
    failure ??= error;
    status = 'failed';
  }
  if (signals.dispatch.aborted && status === 'completed') status = 'interrupted';
  const unreachable = breaker.opened;

  const summary = accumulator.finish({
    evalNames,
    ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
    ...(prompt.testSettings.score_thresholds ? { scoreThresholds: prompt.testSettings.score_thresholds } : {}),
    ...(prompt.testSettings.judge_min_agreement ? { judgeMinAgreement: prompt.testSettings.judge_min_agreement } : {}),
    runLimits: runLimitsOf(prompt),
  });
  if (status !== 'completed') {
    // Rows that never ran cannot pass: an unfinished run never reports PASSED.
    summary.passed = false;
    summary.outcome = status === 'failed' ? 'failed' : unreachable || context.refusal.refused ? 'stopped' : 'interrupted';
  }
  if (runHookErrors.length > 0) {
    // A run-level hook that failed (beforeAll) is the run's error: the verdict says so.
    summary.gates.push({ name: 'hooks', passed: false, message: runHookErrors.join('; ') });
    summary.passed = false;
  }
  const notRun = info.total === undefined ? undefined : info.total - recorder.recorded;
  const refused = context.refusal.refused;
  const stopped = unreachable
    ? { reason: 'server-unreachable' as const, error: unreachableError(unreachable, handle.id, notRun) }
    : refused
      ? { reason: 'auth-failed' as const, error: keyRefusedError(refused, { modelName: caller.modelName, runId: handle.id, projectRoot: project.root, notRun }) }
      : undefined;
  const ended = handle.updateManifest({
    status,
    endedAt: new Date(now()).toISOString(),
    summary,
    // Cleared when a resume ends otherwise (undefined is left out of the JSON).
    stopped: stopped ? { reason: stopped.reason, message: stopped.error.message } : undefined,
    integrity: handle.integrity(),
    failure: failureRecord(failure),
  });
  // A manifest that cannot be written (the disk is full) must not hide why the run failed.
  await (failure === undefined ? ended : ended.catch(() => undefined));
  // Before the report: the lock is free (and the cache written) by the time the summary shows.
  await caller.close();
  await handle.close();
  const afterAll = hooks.afterAll;
  if (afterAll) {
    // After the manifest is written: the verdict stands, a failure here is said on stderr.
    const ended = await runHook('afterAll', () => afterAll(info, summary), hookTimeoutMs);
    if (!ended.ok) await emit({ type: 'warning', message: ended.error });
  }
  await emit({ type: 'run-end', info, summary, status, rows: () => handle.rowsInOrder() });
  if (failure !== undefined) throw failure;
  if (stopped) throw stopped.error;
  if (options.threshold !== undefined && summary.rows > 0 && summary.evals.every((e) => e.verdictCount === 0)) {
    throw new UsageError('USAGE_THRESHOLD_WITHOUT_VERDICTS', '--threshold was given but no eval reported passed', {
      hint: 'use evals with boolean or categorical results, or score_thresholds for numeric scores',
    });
  }
  return { runId: handle.id, runDir: handle.dir, status, summary, failedIndexes: accumulator.failedIndexes() };
}

/** The options among `keys` that are set (exactOptionalPropertyTypes forbids passing undefined). */
function pick<T extends object, K extends keyof T>(from: T, ...keys: K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((key) => from[key] !== undefined).map((key) => [key, from[key]])) as Partial<Pick<T, K>>;
}

function totalOf(total: number): { total?: number } {
  return Number.isFinite(total) && total >= 0 ? { total } : {};
}

/** Each eval's score schema, by name (an untyped eval has none). */
function schemasOf(evals: readonly BoundEval[]): Record<string, ScoreSchema | undefined> {
  return Object.fromEntries(evals.map((bound) => [bound.name, bound.schema]));
}
