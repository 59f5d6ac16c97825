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
 * The commit and dirty flag of the repository holding `dir`; undefined outside a repository
 * or without git. `.agentmark/` (our own runs and cache) does not count as a change,
 * else every run after the first would look dirty.
 */
export async function gitInfo(dir: string): Promise<GitInfo | undefined> {
  const [head, status] = await Promise.all([
    git(dir, ['rev-parse', 'HEAD']),
    git(dir, ['status', '--porcelain', '--', ':/', ':(exclude).agentmark']),
  ]);
  const commit = head?.trim();
  if (!commit || status === undefined) return undefined;
  return { commit, dirty: status.trim() !== '' };
}
