import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { gitInfo } from '../../src/store/index.js';
import { tempDir } from './fixtures.js';

let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd, encoding: 'utf8' });

test('undefined outside a repository', async () => {
  expect(await gitInfo(dir)).toBeUndefined();
});

test('commit and dirty flag; our own .agentmark folder does not count as a change', async () => {
  git(dir, 'init', '-q', '-b', 'main');
  await writeFile(join(dir, 'a.txt'), 'a');
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-q', '-m', 'first');
  const head = git(dir, 'rev-parse', 'HEAD').trim();

  const project = join(dir, 'project');
  await mkdir(join(project, '.agentmark', 'runs'), { recursive: true });
  await writeFile(join(project, '.agentmark', 'runs', 'x.json'), '{}');
  expect(await gitInfo(project)).toEqual({ commit: head, dirty: false, branch: 'main' });

  await writeFile(join(dir, 'a.txt'), 'changed');
  expect(await gitInfo(project)).toEqual({ commit: head, dirty: true, branch: 'main' });

  // A detached HEAD has no branch: `@main` must not find the run as main's.
  git(dir, 'checkout', '-q', '--detach');
  expect(await gitInfo(project)).toEqual({ commit: head, dirty: true });
});

test('a repository without commits has no commit to report', async () => {
  git(dir, 'init', '-q');
  expect(await gitInfo(dir)).toBeUndefined();
});
