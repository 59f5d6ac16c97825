import { relative } from 'node:path';
import { readDataset, selectRows } from '../dataset/index.js';
import { findUnreachableFailure } from '../model/index.js';
import type { ScoreSchema } from '../project/types.js';
import { scoreRanges, type BoundEval } from '../scoring/index.js';
import { selectShard } from '../shard/index.js';
import type { RunInfo, RunListener, RunStatus } from './events.js';
import type { RowPipeline } from './row-pipeline.js';
import { dispatchRows } from './dispatch-rows.js';
import { stopSignals } from './stop-signals.js';
import { RowRecorder } from './row-recorder.js';
import { RunAccumulator } from './run-summary.js';
import { runHook } from './run-hook.js';
import { workItems } from './work-items.js';
import { expectedTotal } from './expected-total.js';
import { finishRun } from './finish-run.js';
import type { ExperimentOutcome, OpenedRunContext } from './opened-run-context.js';

/**
 * The rows of an opened run: run-start and `beforeAll`, the rows an earlier attempt finished
 * (on `--resume`), then every row still to run through the pipeline (live calls, a config
 * agent, or batch jobs with `--batch`, chosen in dispatchRows), each recorded as it finishes;
 * then the run's end (finishRun).
 */
export async function runOpened(context: OpenedRunContext): Promise<ExperimentOutcome> {
  const { options, prompt, caller, evalNames, breaker, datasetPath, plan } = context;
  const { handle, done, replay, tookOverFrom } = context.opened;
  const { project, config } = options;
  const emit: RunListener = options.onEvent ?? (() => {});
  const now = options.now ?? Date.now;
  const repeat = options.repeat ?? 1;
  const allEvals = [...context.evals, ...(context.conversation?.turnEvals ?? [])];
  const ungated = allEvals.filter((bound) => bound.schema?.gate === false).map((bound) => bound.name);
  const accumulator = new RunAccumulator(evalNames, repeat, scoreRanges(allEvals), ungated, schemasOf(allEvals));
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
    ...(allEvals.some((bound) => bound.inline !== true) ? { meterJudges: caller.meterJudges } : {}),
    evals: context.evals,
    ...(context.rowEvals === undefined ? {} : { rowEvals: context.rowEvals }),
    evalTimeoutMs: options.evalTimeoutMs ?? 30_000,
    emit,
    scoreOnly: options.scoreOnly ?? false,
    ...(context.runner === undefined ? {} : { agent: context.runner }),
    isUnreachable: (error) => findUnreachableFailure(error) !== undefined,
    ...(context.conversation === undefined ? {} : { conversation: context.conversation }),
  };
  const selected = () => {
    const all = readDataset(datasetPath, { inputSchema: prompt.inputSchema });
    // Every row: straight from the reader, without selectRows' generator handing each one on.
    const rows = plan.selection.kind === 'all' ? all : selectRows(all, plan.selection, { total: plan.datasetRows });
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
  return finishRun({ context, accumulator, info, status, failure, runHookErrors, recorded: recorder.recorded, hookTimeoutMs });
}

function totalOf(total: number): { total?: number } {
  return Number.isFinite(total) && total >= 0 ? { total } : {};
}

/** Each eval's score schema, by name (an untyped eval has none). */
function schemasOf(evals: readonly BoundEval[]): Record<string, ScoreSchema | undefined> {
  return Object.fromEntries(evals.map((bound) => [bound.name, bound.schema]));
}
