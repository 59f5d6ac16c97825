import { UsageError, closestMatch } from '../errors/index.js';
import type { RunManifest, RunQuery, RunStorage } from '../store/index.js';

/** How a run in a store is named; shown in hints. */
export const STORE_REF_FORMS = 'a run id or unique prefix, `latest`, `latest~N`, `@<branch>` or `branch:<name>`, `commit:<sha>`';

const LATEST = /^latest(?:~(\d+))?$/;

/**
 * Resolves a run reference in a store (the team's database, or the local folder through the same
 * contract), to the run's manifest. Within the prompt in context when one is given:
 * - `latest` / `latest~N`: the newest / N-th newest completed run;
 * - `@<branch>` and `branch:<name>`: the newest completed run made on that branch (`@main`);
 * - `commit:<sha>`: the newest completed run made at that commit (a prefix of 4 or more);
 * - a run id, or a unique prefix of one.
 */
export async function resolveStoreRef(storage: RunStorage, ref: string, prompt?: string): Promise<RunManifest> {
  const scope = prompt === undefined ? '' : ` of ${prompt}`;
  const base: RunQuery = { status: 'completed', ...(prompt === undefined ? {} : { promptPath: prompt }) };
  const latest = LATEST.exec(ref);
  if (latest) {
    const back = Number(latest[1] ?? 0);
    const runs = await storage.listRuns({ ...base, limit: back + 1 });
    return runs[back] ?? fail(`${ref}: there ${runs.length === 1 ? 'is 1 completed run' : `are ${runs.length} completed runs`}${scope} in ${storage.location}`, runs.length === 0 ? 'push one first: agentmark runs push' : `the oldest is latest~${runs.length - 1}`);
  }
  const branch = ref.startsWith('@') ? ref.slice(1) : ref.startsWith('branch:') ? ref.slice('branch:'.length) : undefined;
  if (branch !== undefined && branch !== '') {
    const [found] = await storage.listRuns({ ...base, branch, limit: 1 });
    return found ?? fail(`${ref}: no completed run${scope} on branch ${branch} in ${storage.location}`, 'run it on that branch with the store set, or push a run made there (agentmark runs push)');
  }
  if (ref.startsWith('commit:')) {
    const commit = ref.slice('commit:'.length).toLowerCase();
    if (!/^[0-9a-f]{4,64}$/.test(commit)) fail(`${ref}: a commit is 4 to 64 hex digits`, 'e.g. commit:3f2a9c1');
    const [found] = await storage.listRuns({ ...base, commit, limit: 1 });
    return found ?? fail(`${ref}: no completed run${scope} at commit ${commit} in ${storage.location}`, 'run the experiment on that commit first');
  }
  const exact = await storage.getRun(ref);
  if (exact !== undefined) return exact;
  const matches = ref === '' ? [] : await storage.listRuns({ idPrefix: ref, limit: 6 });
  if (matches.length === 1) return matches[0] as RunManifest;
  if (matches.length > 1) {
    throw new UsageError('USAGE_AMBIGUOUS_RUN', `run "${ref}" is ambiguous: several runs start with it`, { hint: `give more of the id: ${matches.slice(0, 5).map((m) => m.id).join(', ')}` });
  }
  const recent = (await storage.listRuns({ limit: 200 })).map((m) => m.id);
  const close = closestMatch(ref, recent);
  const hints = [...(close === undefined ? [] : [`did you mean "${close}"?`]), recent.length > 0 ? `recent runs: ${recent.slice(0, 5).join(', ')}` : `no runs yet in ${storage.location}`, `a run is named by ${STORE_REF_FORMS}`];
  return fail(`unknown run "${ref}" in ${storage.location}`, hints.join('; '));
}

function fail(message: string, hint: string): never {
  throw new UsageError('USAGE_UNKNOWN_RUN', message, { hint });
}
