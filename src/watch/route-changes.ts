import type { ChangeBatch } from './change-batcher.js';
import type { DependencyGraph } from './dependency-graph.js';
import { isPromptTarget, type WatchTargets } from './watch-targets.js';

/** What one batch of file changes asks of the session. */
export interface ChangeRoute {
  /** A shared file (agentmark.json, the config, a config import) changed: reload and rerun all. */
  shared: boolean;
  /** Watched prompts that were deleted. */
  dropped: string[];
  /** Prompts that appeared under a watched folder. */
  added: string[];
  /** Experiments reading a changed file. */
  affected: Set<string>;
}

/**
 * Sorts a batch of changes: shared files win (everything reruns); otherwise each path drops,
 * adds or reruns the experiments that read it.
 */
export function routeChanges(
  batch: ChangeBatch,
  context: { sharedPaths: ReadonlySet<string>; watched: (path: string) => boolean; graph: DependencyGraph; targets: WatchTargets },
): ChangeRoute {
  const route: ChangeRoute = { shared: false, dropped: [], added: [], affected: new Set() };
  if ([...batch.keys()].some((path) => context.sharedPaths.has(path))) {
    route.shared = true;
    return route;
  }
  for (const [path, kind] of batch) {
    if (kind === 'unlink' && context.watched(path)) route.dropped.push(path);
    else if (kind !== 'unlink' && !context.watched(path) && isPromptTarget(path, context.targets)) route.added.push(path);
    else for (const experiment of context.graph.dependents(path)) route.affected.add(experiment);
  }
  return route;
}
