import { execFile } from 'node:child_process';
import type { GitInfo } from './types.js';

/** Git can hang on a network filesystem or a huge tree; a run must not wait on it. */
const GIT_TIMEOUT_MS = 5000;

function git(dir: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      // No optional locks: `status` would otherwise refresh and lock the index, racing with
      // whatever git command the user runs at the same time.
      { cwd: dir, timeout: GIT_TIMEOUT_MS, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' }, windowsHide: true },
      (error, stdout) => resolve(error ? undefined : stdout),
    );
  });
}

/**
 * The commit, branch and dirty flag of the repository holding `dir`; undefined outside a repository
 * or without git. `.agentmark/` (our own runs and cache) does not count as a change,
 * else every run after the first would look dirty.
 */
export async function gitInfo(dir: string): Promise<GitInfo | undefined> {
  // One process for both (spawning one costs ~10 ms of the main thread at start-up): the
  // v2 format's `# branch.oid` header line is the commit, any other line a change.
  const status = await git(dir, ['status', '--porcelain=v2', '--branch', '--', ':/', ':(exclude).agentmark']);
  if (status === undefined) return undefined;
  let commit: string | undefined;
  let branch: string | undefined;
  let dirty = false;
  for (const line of status.split('\n')) {
    if (line.startsWith('# branch.oid ')) commit = line.slice('# branch.oid '.length).trim();
    // `(detached)` on a detached HEAD: no branch.
    else if (line.startsWith('# branch.head ') && !line.endsWith('(detached)')) branch = line.slice('# branch.head '.length).trim();
    else if (line !== '' && !line.startsWith('# ')) dirty = true;
  }
  // `(initial)`: a repository without a commit yet.
  if (commit === undefined || !/^[0-9a-f]{40,64}$/.test(commit)) return undefined;
  return branch === undefined ? { commit, dirty } : { commit, dirty, branch };
}
