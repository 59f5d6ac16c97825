import { execFile } from 'node:child_process';

/** `--reviewer`, else git's `user.name` in `dir`; undefined when neither is set. */
export function reviewerName(given: string | undefined, dir: string): Promise<string | undefined> {
  if (given !== undefined && given.trim() !== '') return Promise.resolve(given.trim());
  return new Promise((resolve) => {
    execFile('git', ['config', 'user.name'], { cwd: dir, timeout: 5000, windowsHide: true }, (error, stdout) =>
      resolve(error ? undefined : stdout.trim() || undefined),
    );
  });
}
