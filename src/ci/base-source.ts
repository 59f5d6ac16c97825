import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { isAgentmarkError } from '../errors/index.js';
import { loadConfig, loadProject, type LoadedConfig } from '../project/index.js';
import type { Project } from '../project/types.js';
import { loadPrompt } from '../prompt/index.js';
import { estimateLiveCalls } from './estimate-calls.js';
import { BlobStore, openRunFolder, type RunStore, type StoredRun } from '../store/index.js';
import { BaseWorktree } from './base-worktree.js';
import type { BaseTree } from './plan-prompts.js';
import { runSide, type SideSettings } from './run-side.js';
import { storedBase } from './stored-base.js';

export type BaseResult =
  | { run: StoredRun; source: 'store' | 'worktree' }
  /** The base run was stopped (Ctrl-C, --max-cost): no base, and no failure either. */
  | { unfinished: string }
  /** No base could be had: what was tried, each with why it did not give one. */
  | { failure: string };

/**
 * Where the base's results of a prompt come from, in order: a finished run in the store made at
 * the base commit (storedBase), else a run of the base's files in a temporary worktree of the
 * base commit, made once and shared by every prompt, with the head's response cache. A run
 * made there is copied into the project's store (with its prompt texts), so the next `ci`
 * against the same base finds it without a worktree.
 */
export class BaseSource {
  #worktree: BaseWorktree | undefined;
  #project: Promise<{ project: Project; config: LoadedConfig }> | undefined;

  constructor(
    private readonly headProject: Project,
    private readonly store: RunStore,
    private readonly tree: BaseTree,
    private readonly settings: SideSettings,
    /** The team store's URL, looked in for a base run before the local store. */
    private storeUrl?: string,
    /** Told once when the team store cannot be reached: the bases are then looked for here only. */
    private readonly warn?: (message: string) => void,
  ) {}

  /** storedBase, with a team store that is down passed over (one warning), as a run goes on locally. */
  private async stored(path: string): Promise<StoredRun | undefined> {
    try {
      return await storedBase(this.store, path, this.tree, this.settings.shard, this.storeUrl);
    } catch (error) {
      if (this.storeUrl === undefined || (error as { code?: string }).code !== 'STORE_UNREACHABLE') throw error;
      this.storeUrl = undefined;
      this.warn?.(`the team store is not available (${(error as Error).message}): base runs are looked for in this clone only`);
      return storedBase(this.store, path, this.tree, this.settings.shard);
    }
  }

  async resultFor(path: string): Promise<BaseResult> {
    const short = this.tree.commit.slice(0, 12);
    const stored = await this.stored(path);
    if (stored) return { run: stored, source: 'store' };
    const tried = `tried: a finished run of ${path} at ${short} in the run store${this.storeUrl === undefined ? '' : ' and the team store'} (none)`;
    let base: { project: Project; config: LoadedConfig };
    try {
      base = await this.baseProject();
    } catch (error) {
      return { failure: `${tried}; a worktree of ${short} (${messageOf(error)})` };
    }
    let outcome;
    try {
      outcome = await runSide(base.project, base.config, join(base.project.root, path), this.settings);
    } catch (error) {
      if (!isAgentmarkError(error)) throw error;
      return { failure: `${tried}; a run of ${path} in a worktree of ${short}, which could not start (${messageOf(error)})` };
    }
    if (outcome.status !== 'completed') return { unfinished: `the base run of ${path} was stopped` };
    const target = this.store.runDir(outcome.runId);
    await cp(outcome.runDir, target, { recursive: true });
    const run = await openRunFolder(target);
    await new BlobStore(this.headProject.root).copyFrom(BlobStore.ofRunDir(outcome.runDir), (run.manifest.provenance?.files ?? []).map((file) => file.hash));
    return { run, source: 'worktree' };
  }

  /** The base side's live calls for `estimateLiveCalls`: none when the store has the run; 0 also when the base cannot be loaded (the run will say why). */
  async estimate(path: string, cacheMode: SideSettings['cacheMode']): Promise<number> {
    if (await this.stored(path)) return 0;
    try {
      const base = await this.baseProject();
      const prompt = await loadPrompt(join(base.project.root, path), { project: base.project, filters: base.config.filters });
      return await estimateLiveCalls(base.project, base.config, prompt, this.settings.cacheDir, cacheMode);
    } catch (error) {
      if (!isAgentmarkError(error) && !(error instanceof Error && error.message.startsWith('git worktree add'))) throw error;
      return 0;
    }
  }

  /** Removes the worktree, if one was made. */
  async close(): Promise<void> {
    await this.#worktree?.remove();
  }

  private baseProject(): Promise<{ project: Project; config: LoadedConfig }> {
    this.#project ??= (async () => {
      this.#worktree = await BaseWorktree.create(this.tree.top, this.tree.commit, join(this.headProject.root, '.agentmark'));
      const project = await loadProject(join(this.#worktree.dir, this.tree.prefix));
      return { project, config: await loadConfig(project, { client: true, fsCache: true }) };
    })();
    return this.#project;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
