import { execFileSync } from 'node:child_process';

/**
 * Makes `dir` a git repository on branch `main` with everything in it committed, whatever the
 * machine's git config holds (the CI runs as root in a clean clone, maybe with no user set).
 * `date` pins the commit's dates, so its sha is the same on every run.
 */
export function commitAllOnMain(dir: string, date?: string): void {
  const env = date === undefined ? process.env : { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8', env });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'project');
}
