import { execFile, execFileSync } from 'node:child_process';

export interface GitResult {
  ok: boolean;
  stdout: Buffer;
  /** git's own message on failure, trimmed. */
  stderr: string;
}

/** No optional locks: `ci` runs git beside whatever the user (or CI) does in the same repository. */
const GIT_ENV = { ...process.env, GIT_OPTIONAL_LOCKS: '0' };

/** Runs git in `cwd`; never throws (a missing git is `ok: false` with the spawn error as stderr). */
export function git(cwd: string, args: string[], timeoutMs = 120_000): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, encoding: 'buffer', timeout: timeoutMs, maxBuffer: 1 << 30, env: GIT_ENV, windowsHide: true }, (error, stdout, stderr) => {
      const message = stderr.toString('utf8').trim() || (error ? error.message : '');
      resolve({ ok: error === null, stdout, stderr: message });
    });
  });
}

/** The same, synchronously: for the process's `exit` handler, where nothing asynchronous runs. */
export function gitSync(cwd: string, args: string[]): boolean {
  try {
    execFileSync('git', args, { cwd, stdio: 'ignore', env: GIT_ENV, windowsHide: true });
    return true;
  } catch {
    return false;
  }
}

/** The commit a ref names; undefined when git does not know it. */
export async function commitOf(cwd: string, ref: string): Promise<string | undefined> {
  // `--end-of-options` so a ref starting with `-` is never read as a flag.
  const result = await git(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], 10_000);
  const text = result.stdout.toString('utf8').trim();
  return result.ok && text !== '' ? text : undefined;
}

/** The best common ancestor of two commits; undefined when they share no history. */
export async function mergeBase(cwd: string, a: string, b: string): Promise<string | undefined> {
  const result = await git(cwd, ['merge-base', '--end-of-options', a, b], 30_000);
  const text = result.stdout.toString('utf8').trim();
  return result.ok && text !== '' ? text : undefined;
}

/** The repository's top folder and the project's path inside it (`sub/dir/`, or '' at the top). */
export async function repositoryOf(cwd: string): Promise<{ top: string; prefix: string } | undefined> {
  const result = await git(cwd, ['rev-parse', '--show-toplevel', '--show-prefix'], 10_000);
  if (!result.ok) return undefined;
  const [top, prefix] = result.stdout.toString('utf8').split('\n');
  return top ? { top, prefix: prefix ?? '' } : undefined;
}

/** A file's bytes at a commit (`path` relative to the repository's top); undefined when it is not there. */
export async function fileAt(cwd: string, commit: string, path: string): Promise<Buffer | undefined> {
  const result = await git(cwd, ['cat-file', 'blob', `${commit}:${path}`]);
  return result.ok ? result.stdout : undefined;
}

/** Every file under `path` (a file or a folder, relative to the top) at a commit. */
export async function filesAt(cwd: string, commit: string, path: string): Promise<string[]> {
  const result = await git(cwd, ['ls-tree', '-r', '--name-only', '-z', '--full-tree', commit, '--', path === '' ? '.' : path]);
  if (!result.ok) return [];
  return result.stdout.toString('utf8').split('\0').filter((name) => name !== '');
}
