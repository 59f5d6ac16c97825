import type { RunHandle } from '../store/index.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import type { KeyRefusal } from './key-refusal.js';
import type { RunListener } from './events.js';
import type { ModelCaller } from './model-caller.js';
import type { RunExperimentOptions } from './options.js';
import { runPool } from './pool.js';
import { runRowWithHooks, type RowHookSettings } from './row-hooks.js';
import { processRow, RowAborted, RowUnreachable, type RowPipeline } from './row-pipeline.js';
import type { RowResult } from './types.js';
import type { WorkItem } from './work-items.js';
import { availableParallelism } from 'node:os';
import { useHttpThread, warmHttpThread } from '../model/index.js';

/**
 * Live runs of at least this many rows send their requests from a worker thread
 * (model/http/http-thread.ts): starting it costs ~30 ms of the other core, which a few hundred
 * fast requests repay.
 */
export const HTTP_THREAD_MIN_ROWS = 200;

/**
 * Whether a run sends from the HTTP thread when the caller did not say: a live run expecting
 * HTTP_THREAD_MIN_ROWS rows or more, on a machine with a second core for the thread to run on
 * (on one core it would only add the messages between the threads).
 */
export function wantsHttpThread(run: { expectedRows: number | undefined; scoreOnly: boolean; cacheOnly: boolean; cores: number }): boolean {
  return (run.expectedRows ?? 0) >= HTTP_THREAD_MIN_ROWS && !run.scoreOnly && !run.cacheOnly && run.cores > 1;
}

/**
 * For a run certain to send every row of its dataset live (`--no-cache`, no row selection, no
 * shard, resume or batch), a count of the rows the dataset check sees that starts the HTTP thread
 * at the HTTP_THREAD_MIN_ROWS-th: the worker then loads while the rest of the dataset is checked
 * and the run opens, instead of after the run's first request (which waited for it). Undefined
 * for any other run: the thread starts with its first request, if it wants one.
 */
export function httpThreadWarmer(
  options: Pick<RunExperimentOptions, 'cacheMode' | 'scoreOnly' | 'batch' | 'shard' | 'resume' | 'selection' | 'filter' | 'onlyIndexes' | 'httpThread'>,
  cores = availableParallelism(),
): (() => void) | undefined {
  const everyRowLive =
    options.cacheMode === 'off' && options.scoreOnly !== true && options.batch === undefined && options.shard === undefined && options.resume === undefined;
  const everyRow = (options.selection === undefined || options.selection.kind === 'all') && options.filter === undefined && options.onlyIndexes === undefined;
  if (!everyRowLive || !everyRow || options.httpThread === false || cores < 2) return undefined;
  let rows = 0;
  return () => {
    rows += 1;
    if (rows === HTTP_THREAD_MIN_ROWS) warmHttpThread();
  };
}

export interface DispatchContext {
  options: RunExperimentOptions;
  handle: RunHandle;
  pipeline: RowPipeline;
  caller: ModelCaller;
  breaker: CircuitBreaker;
  /** Stops the run at the first key the provider refuses. */
  refusal?: KeyRefusal;
  /** The rows × repeats still to run, a fresh pass per call (the dataset is streamed again). */
  items: () => AsyncIterable<WorkItem>;
  /** Rows of a `--batch` run that an earlier attempt's jobs failed. */
  retry: ReadonlySet<string>;
  /** Per-row hooks, when the config has any. */
  rowHooks: RowHookSettings | undefined;
  /** Stores one finished row (results file, summary, listeners). */
  record: (result: RowResult) => Promise<void>;
  /** Stops dispatching new rows. */
  dispatch: AbortSignal;
  /** Aborts the rows in flight. */
  rowSignal: AbortSignal;
  emit: RunListener;
  /** Rows × repeats this run expects to send, when known (a shard's is not). */
  expectedRows?: number;
}

/**
 * Sends every row to the model, live through a pool of `--concurrency` workers or, for a
 * `--batch` run (or the resume of one), as batch jobs. Rows whose call could not reach the
 * server are held: recorded as errored once the server answers again (or the run ends without
 * the breaker opening), dropped as not run if it opens.
 */
export async function dispatchRows(context: DispatchContext): Promise<void> {
  const { options, handle, pipeline, caller, breaker, record } = context;
  const batch = options.batch ?? (handle.manifest.batch !== undefined ? {} : undefined);
  if (batch) {
    const { runBatchRows, batchSettingsOf } = await import('../batch/index.js');
    await runBatchRows({
      handle,
      pipeline,
      callWith: caller.callWith,
      judgeWith: caller.judgeWith,
      // A resume without --batch keeps the run's own choice.
      judgeLive: options.batch?.judgeLive ?? (handle.manifest.options as { batch?: { judgeLive?: boolean } }).batch?.judgeLive ?? false,
      items: context.items,
      record,
      retry: context.retry,
      concurrency: options.concurrency ?? 20,
      dispatch: context.dispatch,
      rowSignal: context.rowSignal,
      emit: context.emit,
      settings: batchSettingsOf(batch),
      env: options.env ?? process.env,
      modelName: caller.modelName,
      projectRoot: options.project.root,
      configBaseURL: options.config.baseURL,
      tools: options.config.tools ?? {},
      prices: options.config.prices ?? {},
    });
    return;
  }

  const threaded =
    options.httpThread ??
    wantsHttpThread({ expectedRows: context.expectedRows, scoreOnly: pipeline.scoreOnly, cacheOnly: options.cacheMode === 'only', cores: availableParallelism() });
  const release = threaded ? useHttpThread() : undefined;
  try {
    await dispatchLive(context);
  } finally {
    release?.();
  }
}

async function dispatchLive(context: DispatchContext): Promise<void> {
  const { options, pipeline, breaker, record } = context;
  const held: RowResult[] = [];
  // Warm-up is about calls: the first --warmup calls that went to the model (in the order they
  // started), and with --warmup-repeats the first repeats of each row that did. An answer from
  // the cache made no call, so it is never warm-up and takes no warm-up place.
  let liveCalls = 0;
  const isWarmup = (r: number): boolean => liveCalls++ < (options.warmup ?? 0) || r < (options.warmupRepeats ?? 0);
  await runPool(
    context.items(),
    options.concurrency ?? 20,
    async ({ row, repeat }) => {
      let warmup = false;
      // Called per live call: an agent's row makes several, and it is warm-up if any of them was
      // (its latency includes that call); each call still takes its own warm-up place.
      const onLive = (): void => {
        if (isWarmup(repeat)) warmup = true;
      };
      const started = context.emit({ type: 'row-start', index: row.index, repeat });
      if (started !== undefined) await started;
      let result;
      try {
        const runRow = (): Promise<RowResult> => processRow(pipeline, row, repeat, context.rowSignal, onLive);
        result = context.rowHooks ? await runRowWithHooks(context.rowHooks, row, repeat, runRow) : await runRow();
      } catch (error) {
        if (error instanceof RowAborted) return;
        if (error instanceof RowUnreachable) {
          if (!breaker.opened) held.push(error.row);
          return;
        }
        throw error;
      }
      // Not recorded: the row was not run (the run stops; --resume runs it with a good key).
      if (context.refusal?.check(result)) return;
      if (held.length > 0 && !breaker.failing) for (const waiting of held.splice(0)) await record(waiting);
      await record(warmup ? { ...result, warmup: true } : result);
    },
    context.dispatch,
  );
  if (!context.dispatch.aborted) for (const waiting of held.splice(0)) await record(waiting);
}
