import { loadPrompt, type LoadedPrompt } from '../prompt/index.js';
import type { DependencyGraph } from './dependency-graph.js';
import { errorFiles, experimentFiles } from './experiment-files.js';
import type { ProjectState } from './project-state.js';
import type { RerunRequest } from './rerun-scheduler.js';
import { runWatched, type WatchedRun } from './run-watched.js';
import { loadSettled } from './settled.js';
import type { WatchSessionOptions } from './watch-options.js';

/** How one rerun ended, for the session to show. */
export type RerunOutcome =
  | { kind: 'skipped' }
  | { kind: 'error'; error: unknown }
  | { kind: 'cancelled'; runId: string }
  | { kind: 'done'; run: WatchedRun };

export interface RerunContext {
  shared: ProjectState;
  graph: DependencyGraph;
  /** Tells the watcher the files the graph now names. */
  syncWatcher: () => void;
  settings: WatchSessionOptions['run'];
}

/**
 * Reruns one experiment: loads its prompt (once more after a save settles, should it fail),
 * records the files it read in the dependency graph, and runs it. A prompt that fails to load
 * keeps its old files watched, plus the ones its error names, so fixing any of them reruns it.
 */
export async function rerunExperiment(path: string, request: RerunRequest, signal: AbortSignal, context: RerunContext): Promise<RerunOutcome> {
  const { config, project } = context.shared;
  if (!config) return { kind: 'skipped' }; // a broken config shows its own error; fixing it reruns all
  let prompt: LoadedPrompt;
  try {
    prompt = await loadSettled(() => loadPrompt(path, { project, filters: config.filters }), { signal });
    context.graph.set(path, experimentFiles(prompt, project));
  } catch (error) {
    context.graph.extend(path, [path, ...errorFiles(error)]);
    context.syncWatcher();
    return signal.aborted ? { kind: 'skipped' } : { kind: 'error', error };
  }
  context.syncWatcher();
  if (signal.aborted) return { kind: 'skipped' };
  let run: WatchedRun;
  try {
    // A dataset read half-written fails before any row runs: once more after the save settles.
    run = await loadSettled(() => runWatched({ settings: context.settings, project, config, prompt, request, signal }), { signal });
  } catch (error) {
    return signal.aborted ? { kind: 'skipped' } : { kind: 'error', error };
  }
  return run.outcome.status === 'interrupted' ? { kind: 'cancelled', runId: run.outcome.runId } : { kind: 'done', run };
}
