import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { REPO_ROOT, tempProject } from './temp-project.js';

const GIT_CONFIG = ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false'];

/** Runs git in `cwd` with a fixed identity, returning its stdout. */
export const gitIn = (cwd: string, ...args: string[]): string => execFileSync('git', [...GIT_CONFIG, ...args], { cwd, encoding: 'utf8' });

/**
 * A fresh clone, as far as the example project can tell: exactly the files git tracks (so
 * untracked caches, runs and parsed prompts of this working copy do not leak in), plus
 * `node_modules` and the built `dist` that `npm install` makes. The copy is itself a git
 * repository with everything committed, so a test can see whether a command touched a tracked file.
 */
export async function freshClone(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const project = await tempProject();
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    await mkdir(dirname(join(project.dir, file)), { recursive: true });
    await copyFile(join(REPO_ROOT, file), join(project.dir, file));
  }
  await symlink(join(REPO_ROOT, 'node_modules'), join(project.dir, 'node_modules'), 'dir');
  await symlink(join(REPO_ROOT, 'dist'), join(project.dir, 'dist'), 'dir');
  gitIn(project.dir, 'init', '-q');
  // `node_modules/` and `dist/` in .gitignore match folders; here they are links.
  await writeFile(join(project.dir, '.git', 'info', 'exclude'), '/node_modules\n/dist\n');
  gitIn(project.dir, 'add', '-A');
  gitIn(project.dir, 'commit', '-q', '-m', 'fresh clone');
  return project;
}
