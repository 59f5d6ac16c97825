import { setMaxListeners } from 'node:events';
import { relative } from 'node:path';
import { checkRowsInRange, readDataset, resolveDatasetPath, selectRows } from '../dataset/index.js';
import { DatasetError, UsageError } from '../errors/index.js';
import { loadPrompt } from '../prompt/index.js';
import { bindEvals } from '../scoring/index.js';
import { createRunId, fingerprintFile, gitInfo, RunStore, type RunHandle } from '../store/index.js';
import type { RunInfo, RunListener, RunStatus } from './events.js';
import { checkDataset } from './check-dataset.js';
import { createModelCaller } from './model-caller.js';
import type { RunExperimentOptions } from './options.js';
import { runPool } from './pool.js';
import { processRow, RowAborted, type RowPipeline } from './row-pipeline.js';
import { RunAccumulator } from './run-summary.js';
import type { RowResult, RunSummary } from './types.js';
import { workItems } from './work-items.js';
import { checkResume } from './check-resume.js';
import { expectedTotal } from './expected-total.js';

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

  const datasetPath = datasetOf(options.datasetPath ?? prompt.testSettings.dataset, prompt.path, project);
  const caller = await createModelCaller(options, prompt);
  const bound = await bindEvals(evalNames, {
    scores: project.scores,
    userScorers: config.scorers ?? {},
    promptSchema: prompt.frontmatter.object_config?.schema,
    judge: caller.judge,
    judgeModel: options.judgeModel ?? config.judgeModel,
    projectRoot: project.root,
    promptPath: prompt.path,
  });
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
  const [datasetRows, dataset] = await Promise.all([
    checkDataset(datasetPath, prompt.inputSchema, options.signal),
    fingerprintFile(project.root, datasetPath),
  ]);
  checkRowsInRange(options.selection, datasetRows);
  const repeat = options.repeat ?? 1;
  const accumulator = new RunAccumulator(evalNames, repeat);
  let handle: RunHandle;
  let done = new Set<string>();
  let replay: (() => AsyncIterable<RowResult>) | undefined;
  if (options.resume) {
    checkResume(await store.manifest(options.resume), {
      promptPath: relative(project.root, prompt.path),
      promptHash: caller.promptHash,
      datasetPath: dataset.path,
      datasetHash: dataset.hash,
      model: caller.modelName,
      options: { repeat: options.repeat ?? 1, selection: options.selection ?? { kind: 'all' }, skipEval: options.skipEval ?? false },
    });
    const opened = await store.open(options.resume);
    handle = opened.handle;
    done = opened.done;
    replay = opened.rows;
  } else {
    const random = options.random ?? Math.random;
    handle = await store.create({
      id: createRunId({ now, random }),
      prompt: { path: relative(project.root, prompt.path), hash: caller.promptHash, name: prompt.name },
      dataset,
      model: caller.modelName,
      settings: caller.settings,
      options: manifestOptions(options),
      git: await git,
      startedAt: new Date(now()).toISOString(),
      status: 'running',
    });
  }

  const info: RunInfo = {
    runId: handle.id,
    runDir: handle.dir,
    promptPath: relative(project.root, prompt.path),
    promptName: prompt.name,
    model: caller.modelName,
    evalNames,
    ...totalOf(expectedTotal(options.selection, datasetRows, options.onlyIndexes) * repeat - done.size),
    ...(done.size > 0 ? { resumed: done.size } : {}),
  };
  await emit({ type: 'run-start', info });
  if (replay) {
    for await (const row of replay()) {
      accumulator.add(row);
      await emit({ type: 'row-end', row, replayed: true });
    }
  }

  // Ctrl-C stops dispatching at once; rows in flight get a grace period, then their calls abort.
  const stop = options.signal;
  const rowController = new AbortController();
  // Every in-flight call listens to this one signal; hundreds of listeners are expected.
  setMaxListeners(0, rowController.signal);
  if (options.signal) setMaxListeners(0, options.signal);
  const onStop = (): void => {
    setTimeout(() => rowController.abort(), options.graceMs ?? 3000).unref();
  };
  stop?.addEventListener('abort', onStop, { once: true });

  const pipeline: RowPipeline = {
    prompt,
    toRequest: caller.toRequest,
    call: caller.call,
    evals: bound.evals,
    evalTimeoutMs: options.evalTimeoutMs ?? 30_000,
    emit,
    scoreOnly: options.scoreOnly ?? false,
  };
  const rows = selectRows(readDataset(datasetPath, { inputSchema: prompt.inputSchema }), options.selection ?? { kind: 'all' }, {
    total: datasetRows,
  });
  let status: RunStatus = 'completed';
  let failure: unknown;
  try {
    await runPool(
      workItems(rows, repeat, done, options.onlyIndexes),
      options.concurrency ?? 10,
      async ({ row, repeat: r }) => {
        await emit({ type: 'row-start', index: row.index, repeat: r });
        let result;
        try {
          result = await processRow(pipeline, row, r, rowController.signal);
        } catch (error) {
          if (error instanceof RowAborted) return;
          throw error;
        }
        await handle.append(result);
        accumulator.add(result);
        await emit({ type: 'row-end', row: result });
      },
      stop,
    );
  } catch (error) {
    failure = error;
    status = 'failed';
  } finally {
    stop?.removeEventListener('abort', onStop);
  }
  if (stop?.aborted && status === 'completed') status = 'interrupted';
  await caller.close();

  const summary = accumulator.finish({
    evalNames,
    ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
    ...(prompt.testSettings.score_thresholds ? { scoreThresholds: prompt.testSettings.score_thresholds } : {}),
  });
  await handle.updateManifest({ status, endedAt: new Date(now()).toISOString(), summary });
  await handle.close();
  await emit({ type: 'run-end', info, summary, status, rows: () => handle.rowsInOrder() });
  if (failure !== undefined) throw failure;
  if (options.threshold !== undefined && summary.rows > 0 && summary.evals.every((e) => e.passCount === 0)) {
    throw new UsageError('USAGE_THRESHOLD_WITHOUT_VERDICTS', '--threshold was given but no eval reported passed', {
      hint: 'use evals with boolean or categorical results, or score_thresholds for numeric scores',
    });
  }
  return { runId: handle.id, runDir: handle.dir, status, summary, failedIndexes: accumulator.failedIndexes() };
}

function datasetOf(dataset: string | undefined, promptPath: string, project: RunExperimentOptions['project']): string {
  if (!dataset) {
    throw new DatasetError('DATASET_NOT_SET', 'this prompt has no test_settings.dataset to run an experiment on', {
      location: { file: relative(project.root, promptPath) },
      hint: 'add `test_settings: { dataset: ./my-data.jsonl }` to the frontmatter',
    });
  }
  return resolveDatasetPath(dataset, promptPath, project);
}

function totalOf(total: number): { total?: number } {
  return Number.isFinite(total) && total >= 0 ? { total } : {};
}

function manifestOptions(options: RunExperimentOptions): Record<string, unknown> {
  return {
    concurrency: options.concurrency ?? 10,
    timeoutMs: options.timeoutMs ?? 60_000,
    maxRetries: options.maxRetries,
    repeat: options.repeat ?? 1,
    selection: options.selection ?? { kind: 'all' },
    skipEval: options.skipEval ?? false,
    cacheMode: options.cacheMode ?? 'use',
    evalTimeoutMs: options.evalTimeoutMs ?? 30_000,
    judgeModel: options.judgeModel,
    threshold: options.threshold,
  };
}
