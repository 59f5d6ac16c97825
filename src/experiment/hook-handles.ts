/**
 * What user hooks left open. A hook that starts a server or an interval and never closes it
 * keeps node's event loop alive after the run is written (in CI, until the job's timeout); the
 * CLI then exits anyway and names the hook. Attribution compares the kinds of active resources
 * (`process.getActiveResourcesInfo()`) before and after each hook: rough under concurrency (our
 * own sockets come and go meanwhile), so only kinds still open at the end are named.
 */
const leftOpen = new Map<string, Set<string>>();

/** How many resources of each kind keep the event loop alive now. */
export function activeResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** Notes the kinds of resources that are more numerous than `before`, as left by `hook`. */
export function noteLeftOpen(hook: string, before: Map<string, number>): void {
  for (const [kind, count] of activeResources()) {
    if (count <= (before.get(kind) ?? 0)) continue;
    let kinds = leftOpen.get(hook);
    if (!kinds) leftOpen.set(hook, (kinds = new Set()));
    kinds.add(kind);
  }
}

/** The hook to close things in, per hook that opens them. */
const CLOSE_IN: Record<string, string> = { beforeAll: 'afterAll', setup: 'teardown' };

/**
 * One warning line per hook that left open a kind of resource still active in `active` (what
 * keeps the process alive now). Nothing when no hook is to blame: what is left is ours (a scorer
 * worker still being stopped) and ends with the process.
 */
export function leftOpenWarnings(active: readonly string[]): string[] {
  const still = new Set(active);
  const lines: string[] = [];
  for (const [hook, kinds] of leftOpen) {
    const open = [...kinds].filter((kind) => still.has(kind)).sort();
    if (open.length === 0) continue;
    const where = CLOSE_IN[hook];
    lines.push(`warning: the ${hook} hook left something open (${open.join(', ')}); exiting anyway${where ? `: close it in ${where}` : ''}\n`);
  }
  return lines;
}
