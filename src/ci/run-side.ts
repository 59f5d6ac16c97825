import { runExperiment, type CacheMode, type ExperimentOutcome, type RunListener, type RunSummary } from '../experiment/index.js';
import type { LoadedConfig } from '../project/index.js';
import type { Project } from '../project/types.js';
import type { LoadedPrompt } from '../prompt/types.js';
import type { ShardSpec } from '../shard/index.js';
import type { CiRunSide } from './types.js';

/** How every run of one `ci` goes: the same cache, concurrency and stop signal on both sides. */
export interface SideSettings {
  cacheMode: CacheMode;
  cacheDir: string;
  concurrency: number;
  /** `--shard i/n`: both sides run the same part of every prompt's rows. */
  shard?: ShardSpec;
  signal: AbortSignal;
  env: NodeJS.ProcessEnv;
  onEvent: RunListener;
  /**
   * The team store the run streams its rows to (as run-experiment does), so the next job's base
   * is found there. Set for the head only: a base made here is of another tree (a worktree).
   */
  storeUrl?: string;
}

/** One prompt's run, base or head: `run-experiment`'s own runner over every row of its dataset. */
export function runSide(project: Project, config: LoadedConfig, promptPath: string, settings: SideSettings, prompt?: LoadedPrompt): Promise<ExperimentOutcome> {
  return runExperiment({
    project,
    config,
    promptPath,
    ...(prompt ? { prompt } : {}),
    cacheMode: settings.cacheMode,
    cacheDir: settings.cacheDir,
    concurrency: settings.concurrency,
    ...(settings.shard ? { shard: settings.shard } : {}),
    signal: settings.signal,
    env: settings.env,
    onEvent: settings.onEvent,
    ...(settings.storeUrl === undefined ? {} : { storeUrl: settings.storeUrl }),
  });
}

/** What the report shows of a run, from its summary (statistics computed by the run, not here). */
export function sideOf(runId: string, summary: RunSummary, source?: CiRunSide['source']): CiRunSide {
  return {
    runId,
    rows: summary.rows,
    errored: summary.errored,
    cached: summary.cached,
    ...(summary.costUsd === undefined ? {} : { costUsd: summary.costUsd }),
    passed: summary.passed,
    evals: summary.evals.map((e) => ({
      name: e.name,
      ...(e.passRate === undefined ? {} : { passRate: e.passRate }),
      ...(e.passRateCi95 === undefined ? {} : { passRateCi95: e.passRateCi95 }),
      ...(e.meanScore === undefined ? {} : { meanScore: e.meanScore }),
      ...(e.meanScoreCi95 === undefined ? {} : { meanScoreCi95: e.meanScoreCi95 }),
    })),
    ...(source === undefined ? {} : { source }),
  };
}
