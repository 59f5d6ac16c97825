import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { git, gitSync } from './git.js';

/**
 * A temporary `git worktree` of the base commit, made under the project's `.agentmark/` (which
 * `git status` and run provenance leave out) so that the base's config resolves its imports in
 * the project's own `node_modules`, found walking up as from the head's. Removed by `remove()`
 * and, should the process end first (a second Ctrl-C exits at once), by an `exit` handler that
 * removes it synchronously.
 */
export class BaseWorktree {
  #removed = false;
  readonly #onExit = (): void => this.removeSync();

  private constructor(
    /** The repository's top folder (where `git worktree` is run). */
    readonly top: string,
    /** The worktree's top folder. */
    readonly dir: string,
  ) {
    process.on('exit', this.#onExit);
  }

  /**
   * Checks the commit out in a new temporary folder under `parent`. Throws with git's message
   * when the worktree cannot be made.
   */
  static async create(top: string, commit: string, parent: string): Promise<BaseWorktree> {
    await mkdir(parent, { recursive: true });
    const dir = await mkdtemp(join(parent, 'ci-base-'));
    const added = await git(top, ['worktree', 'add', '--detach', '--quiet', dir, commit]);
    if (!added.ok) {
      await rm(dir, { recursive: true, force: true });
      throw new Error(`git worktree add ${commit.slice(0, 12)} failed: ${added.stderr}`);
    }
    return new BaseWorktree(top, dir);
  }

  /** Removes the worktree and its folder; safe to call twice. */
  async remove(): Promise<void> {
    if (this.#removed) return;
    this.#removed = true;
    process.off('exit', this.#onExit);
    const removed = await git(this.top, ['worktree', 'remove', '--force', this.dir]);
    if (!removed.ok) {
      await rm(this.dir, { recursive: true, force: true });
      await git(this.top, ['worktree', 'prune']);
    }
  }

  private removeSync(): void {
    if (this.#removed) return;
    this.#removed = true;
    if (!gitSync(this.top, ['worktree', 'remove', '--force', this.dir])) {
      rmSync(this.dir, { recursive: true, force: true });
      gitSync(this.top, ['worktree', 'prune']);
    }
  }
}
