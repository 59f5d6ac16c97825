import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError, closestMatch } from '../errors/index.js';
import { openRunFolder, RunStore, RunStoreError, type StoredRun } from '../store/index.js';
import { resolveGitCommit } from './git-commit.js';
import { listRuns } from './list-runs.js';
import { fromTeamStore } from './from-team-store.js';

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

export interface RunRefContext {
  /** The project whose `.agentmark/runs/` holds the runs; git refs resolve here. */
  projectRoot: string;
  /** Folder that a path reference is relative to. @default projectRoot */
  cwd?: string;
  /**
   * The prompt in context (path relative to the project root, with `/`): `latest` and `@ref`
   * then mean that prompt's runs. Without it they mean any prompt's.
   */
  prompt?: string;
  /** The run store. @default `new RunStore(projectRoot)` */
  store?: RunStore;
  /**
   * The team store's URL, when the project has one: a reference is looked up there first (see
   * resolveStoreRef: `@<branch>` then means the newest completed run made on that branch), then in
   * the local folder.
   */
  storeUrl?: string;
  /**
   * Told when the team store cannot be reached (STORE_UNREACHABLE) and the reference was found in
   * the local folder instead: the caller warns. A reference the local folder lacks is then the
   * store's error, naming its host and port.
   */
  onStoreDown?: (error: Error) => void;
}

/** How a reference to a run of this clone is written (`merge` takes these). */
export const LOCAL_RUN_REF_FORMS = 'a run id or unique prefix, `latest`, `latest~N`, `@<git-ref>`, or a path to a run folder';

/** How a reference is written where a team store is looked in too; shown in help texts and hints. */
export const RUN_REF_FORMS = 'a run id or unique prefix, `latest`, `latest~N`, `@<git-ref>`, a path to a run folder, or with a team store `branch:<name>` or `commit:<sha>` (there `@<branch>` is that branch\'s newest run)';

/** `branch:<name>` and `commit:<sha>`: references only a team store resolves (its manifests are queried by branch and commit). */
const STORE_ONLY = /^(branch|commit):/;

const LATEST = /^latest(?:~(\d+))?$/;
const RECENT_SHOWN = 5;

/**
 * Resolves a run reference to a stored run:
 * - `latest` / `latest~N`: the newest / N-th newest finished run (of the prompt in context);
 * - `@<git-ref>`: the newest finished run whose manifest's commit is the commit git resolves
 *   the ref to (e.g. `@origin/main`, `@HEAD~1`);
 * - a full run id, or a unique prefix of one;
 * - a path to a run folder (a run downloaded from CI compares the same way);
 * - with a team store, `branch:<name>` and `commit:<sha>` (see resolveStoreRef); without one they
 *   are USAGE_REF_NEEDS_STORE, naming the `@<ref>` that finds this clone's run.
 * Anything else is a UsageError naming the closest ids.
 */
export async function resolveRunRef(ref: string, context: RunRefContext): Promise<StoredRun> {
  if (context.storeUrl !== undefined && !(await isDirectory(resolve(context.cwd ?? context.projectRoot, ref)))) {
    let found: StoredRun | undefined;
    try {
      // A store-only reference the store lacks is the store's error: this clone cannot resolve it.
      found = await fromTeamStore(ref, context.storeUrl, context.projectRoot, context.prompt, { unknownThrows: STORE_ONLY.test(ref) });
    } catch (error) {
      if ((error as { code?: string }).code !== 'STORE_UNREACHABLE') throw error;
      // The store is down: this clone's own runs (its journal) still answer, as a run goes on locally.
      return inThisClone(ref, context, error as RunStoreError);
    }
    if (found !== undefined) return found;
  }
  return resolveLocalRef(ref, context);
}

async function inThisClone(ref: string, context: RunRefContext, down: RunStoreError): Promise<StoredRun> {
  let found: StoredRun;
  try {
    found = await resolveLocalRef(ref, context);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'USAGE_UNKNOWN_RUN' && code !== 'USAGE_REF_NEEDS_STORE') throw error;
    throw new RunStoreError('STORE_UNREACHABLE', `run "${ref}" is not in this clone, and the team store cannot be reached to look for it: ${down.message}`, {
      ...(down.location === undefined ? {} : { location: down.location }),
      hint: 'try again once the store answers (is PostgreSQL running there and reachable from this machine?), or name a run this clone has',
    });
  }
  context.onStoreDown?.(down);
  return found;
}

/** The reference in `.agentmark/runs/` (or a run folder's path) alone. */
async function resolveLocalRef(ref: string, context: RunRefContext): Promise<StoredRun> {
  const store = context.store ?? new RunStore(context.projectRoot);
  const scope = context.prompt === undefined ? '' : ` of ${context.prompt}`;
  const latest = LATEST.exec(ref);
  if (latest) {
    const back = Number(latest[1] ?? 0);
    const runs = await listRuns(store, { finishedOnly: true, limit: back + 1, ...(context.prompt === undefined ? {} : { prompt: context.prompt }) });
    const found = runs[back];
    if (!found) {
      throw new UsageError('USAGE_UNKNOWN_RUN', `${ref}: there ${runs.length === 1 ? 'is 1 finished run' : `are ${runs.length} finished runs`}${scope}`, {
        hint: runs.length === 0 ? 'run an experiment first' : `the oldest is latest~${runs.length - 1}`,
      });
    }
    return openRunFolder(store.runDir(found.id));
  }
  if (ref.startsWith('@')) return byCommit(ref.slice(1), store, context, scope);
  if (STORE_ONLY.test(ref)) throw needsStore(ref);
  const ids = await store.ids();
  if (ids.includes(ref)) return openRunFolder(store.runDir(ref));
  const path = resolve(context.cwd ?? context.projectRoot, ref);
  if ((await stat(path).catch(() => undefined))?.isDirectory()) return openRunFolder(path);
  const matches = ref === '' ? [] : ids.filter((id) => id.startsWith(ref));
  if (matches.length === 1) return openRunFolder(store.runDir(matches[0] as string));
  if (matches.length > 1) {
    throw new UsageError('USAGE_AMBIGUOUS_RUN', `run "${ref}" is ambiguous: ${matches.length} runs start with it`, {
      hint: `give more of the id: ${matches.slice(0, RECENT_SHOWN).join(', ')}${matches.length > RECENT_SHOWN ? ', …' : ''}`,
    });
  }
  const close = closestMatch(ref, ids);
  const hints: string[] = [];
  if (close !== undefined) hints.push(`did you mean "${close}"?`);
  hints.push(ids.length > 0 ? `recent runs: ${ids.slice(0, RECENT_SHOWN).join(', ')}` : `no runs yet in ${store.runsDir}`);
  hints.push(`a run is named by ${RUN_REF_FORMS}`);
  throw new UsageError('USAGE_UNKNOWN_RUN', `unknown run "${ref}"`, { hint: hints.join('; ') });
}

async function byCommit(gitRef: string, store: RunStore, context: RunRefContext, scope: string): Promise<StoredRun> {
  const commit = gitRef === '' ? undefined : await resolveGitCommit(context.projectRoot, gitRef);
  if (commit === undefined) {
    throw new UsageError('USAGE_UNKNOWN_GIT_REF', `@${gitRef}: git does not know this ref here`, {
      hint: 'give a branch, tag or commit (e.g. @origin/main; in CI fetch it first: git fetch origin main)',
    });
  }
  const runs = await listRuns(store, { finishedOnly: true, ...(context.prompt === undefined ? {} : { prompt: context.prompt }) });
  const found = runs.find((run) => run.git?.commit === commit);
  if (!found) {
    throw new UsageError('USAGE_UNKNOWN_RUN', `@${gitRef}: no finished run${scope} at commit ${commit.slice(0, 12)}`, {
      hint: 'run the experiment on that commit first, or give a run folder (e.g. a CI artifact) instead',
    });
  }
  return openRunFolder(store.runDir(found.id));
}

/** USAGE_REF_NEEDS_STORE: `branch:`/`commit:` without a team store, with the `@<ref>` that names this clone's run. */
function needsStore(ref: string): UsageError {
  const [kind, name] = [ref.slice(0, ref.indexOf(':')), ref.slice(ref.indexOf(':') + 1)];
  const local = name === '' ? '`@<git-ref>`' : `\`@${name}\``;
  return new UsageError('USAGE_REF_NEEDS_STORE', `"${ref}" names a run in a team store by its ${kind}, and this project has none: its runs are in .agentmark/ only`, {
    hint: `for this clone's runs use ${local} (the newest finished run at the commit git resolves it to); or set AGENTMARK_STORE_URL=postgres://user:password@host:5432/db (in the environment or .env), or "store" in agentmark.json`,
  });
}
