import { execFile } from 'node:child_process';

/**
 * The commit a git ref names (`origin/main`, `v1.2`, `HEAD~1`, a short sha), resolved by git in
 * `dir`; undefined when git is missing, `dir` is not in a repository, or the ref is unknown.
 */
export function resolveGitCommit(dir: string, ref: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      // `--end-of-options` so a ref starting with `-` is never read as a flag.
      ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`],
      { cwd: dir, timeout: 5000, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' }, windowsHide: true },
      (error, stdout) => resolve(error ? undefined : stdout.trim() || undefined),
    );
  });
}
