import { UsageError } from '../errors/index.js';
import { unreachableError } from './circuit-breaker.js';
import type { RunInfo, RunListener, RunStatus } from './events.js';
import type { RunAccumulator } from './run-summary.js';
import { runHook } from './run-hook.js';
import { runLimitsOf } from './run-limit-gates.js';
import { failureRecord } from './failure-record.js';
import { keyRefusedError } from './key-refusal.js';
import type { ExperimentOutcome, OpenedRunContext } from './opened-run-context.js';

/**
 * The end of a run: the summary and its gates from the rows recorded, why it stopped (a dead
 * server, a refused key), the manifest (which must not hide why a run failed), `afterAll`, and
 * run-end for the reporters. An unfinished run never reports PASSED.
 */
export async function finishRun(end: RunEnd): Promise<ExperimentOutcome> {
  const { context, accumulator, info, status, failure, runHookErrors, hookTimeoutMs } = end;
  const { options, prompt, caller, evalNames, breaker } = context;
  const { handle } = context.opened;
  const { project } = options;
  const emit: RunListener = options.onEvent ?? (() => {});
  const now = options.now ?? Date.now;
  const hooks = options.config.hooks ?? {};
  const unreachable = breaker.opened;

  const summary = accumulator.finish({
    evalNames,
    ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
    ...(prompt.testSettings.score_thresholds ? { scoreThresholds: prompt.testSettings.score_thresholds } : {}),
    ...(prompt.testSettings.judge_min_agreement ? { judgeMinAgreement: prompt.testSettings.judge_min_agreement } : {}),
    runLimits: runLimitsOf(prompt),
  });
  const rate = caller.rateStats;
  if (rate.refused > 0 || rate.waitedMs > 0) summary.rateLimit = { refused: rate.refused, waitedMs: Math.round(rate.waitedMs) };
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
  const notRun = info.total === undefined ? undefined : info.total - end.recorded;
  const refused = context.refusal.refused;
  const stopped = unreachable
    ? { reason: 'server-unreachable' as const, error: unreachableError(unreachable, handle.id, notRun) }
    : refused
      ? { reason: refused.errorCode === 'MODEL_QUOTA_EXCEEDED' ? ('quota-exceeded' as const) : ('auth-failed' as const), error: keyRefusedError(refused, { modelName: caller.modelName, runId: handle.id, projectRoot: project.root, notRun }) }
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
  // Made a set when asked (watch reruns failed rows): a million failed rows are 8 MB, not a set of them.
  const failedRows = accumulator.failedRows();
  let failedIndexes: Set<number> | undefined;
  return {
    runId: handle.id,
    runDir: handle.dir,
    status,
    summary,
    get failedIndexes() {
      return (failedIndexes ??= new Set(failedRows));
    },
  };
}

/** What the row loop hands over when the last row is recorded (or the loop broke off). */
export interface RunEnd {
  context: OpenedRunContext;
  accumulator: RunAccumulator;
  info: RunInfo;
  status: RunStatus;
  /** What broke the loop or the recording, if anything: the run then ends `failed` and rethrows it. */
  failure: unknown;
  /** Failures of `beforeAll`: the run's verdict says so. */
  runHookErrors: string[];
  /** Rows recorded by this attempt. */
  recorded: number;
  hookTimeoutMs: number;
}
