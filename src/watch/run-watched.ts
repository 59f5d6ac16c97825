import { runExperiment } from '../experiment/run-experiment.js';
import type { RowResult } from '../experiment/types.js';
import type { LoadedConfig } from '../project/index.js';
import type { Project } from '../project/types.js';
import type { LoadedPrompt } from '../prompt/index.js';
import type { RerunRequest } from './rerun-scheduler.js';
import type { RecordedRun } from './run-history.js';
import type { WatchRunSettings } from './watch-options.js';

export interface WatchedRunInput {
  settings: WatchRunSettings;
  project: Project;
  config: LoadedConfig;
  prompt: LoadedPrompt;
  request: RerunRequest;
  /** Aborted when the files change again or the session ends. */
  signal: AbortSignal;
}

export type WatchedRun = Omit<RecordedRun, 'onlyIndexes'>;

/**
 * `f` asks the model again: the cache holds the very answers that failed, and replaying them
 * would show nothing new. The fresh answers are stored as usual. A `--cache-only` session never
 * calls a model, so there `f` replays.
 */
function failedRowsCacheMode(settings: WatchRunSettings): 'off' | 'only' {
  return settings.cacheMode === 'only' ? 'only' : 'off';
}

/** One experiment run of watch mode, collecting the rows and model its screen block shows. */
export async function runWatched(input: WatchedRunInput): Promise<WatchedRun> {
  const rows: RowResult[] = [];
  let model: string | undefined;
  const started = performance.now();
  const outcome = await runExperiment({
    ...input.settings,
    project: input.project,
    config: input.config,
    promptPath: input.prompt.path,
    prompt: input.prompt,
    signal: input.signal,
    // A rerun replaces this one: in-flight model calls are stale, abort them at once.
    graceMs: 0,
    ...(input.request.onlyIndexes ? { onlyIndexes: input.request.onlyIndexes, cacheMode: failedRowsCacheMode(input.settings) } : {}),
    onEvent: (event) => {
      if (event.type === 'row-end') rows.push(event.row);
      else if (event.type === 'run-start') model = event.info.model;
    },
  });
  return { outcome, rows, ...(model === undefined ? {} : { model }), durationMs: performance.now() - started };
}
