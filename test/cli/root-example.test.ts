import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, cp, readdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startOpenAIServer } from '../helpers/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { REPO_ROOT, tempProject } from '../helpers/temp-project.js';

// Each test copies the example, commits it to a scratch git repository and runs the CLI.
vi.setConfig({ testTimeout: 90_000 });

/** The replay folder the example's agentmark.json names. */
const REPLAY = 'examples/responses';
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], { cwd: dir, encoding: 'utf8' });

/** A copy of the example as a fresh clone has it: its tracked files committed, then `npm install`. */
async function cloneOfExample(): Promise<string> {
  const { dir, cleanup } = await tempProject();
  cleanups.push(cleanup);
  for (const name of ['agentmark.json', 'agentmark.config.ts', 'package.json', '.gitignore', 'examples', 'prompts', 'datasets', 'judges']) {
    await cp(join(REPO_ROOT, name), join(dir, name), { recursive: true });
  }
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'example');
  // as after `npm install`: the config imports `ai` and the package itself (links, so not ignored as folders)
  await symlink(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await symlink(join(REPO_ROOT, 'dist'), join(dir, 'dist'), 'dir');
  await appendFile(join(dir, '.git', 'info', 'exclude'), 'node_modules\ndist\n');
  return dir;
}

/** Every file of a folder with its bytes, to compare before and after. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) files[name] = await readFile(join(dir, name), 'utf8');
  return files;
}

/** The rows and summary of a `--format json` report: what a run showed, without its id or timings. */
function results(stdout: string): unknown {
  const documents = JSON.parse(stdout) as Array<{ summary: unknown; rows: unknown[] }>;
  return documents.map(({ summary, rows }) => ({ summary, rows }));
}

const offline = (dir: string) => runCli(['run-experiment', 'prompts', '--format', 'json'], { cwd: dir, env: {}, timeoutMs: 60_000 });

describe('the root example', () => {
  it('runs offline from the replay folder its agentmark.json names, and writes nothing tracked', async () => {
    const dir = await cloneOfExample();
    const result = await runCli(['run-experiment', 'prompts/classify-intent.prompt.mdx'], { cwd: dir, env: {} });
    expect(result.stderr).not.toMatch(/^error:/m);
    // Two sample answers are wrong on purpose (README → The main command).
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^│ # +│ Input +│ AI Result +│ Expected Output +│ exact_intent +│ known_intent +│$/m);
    expect(result.stdout).toMatch(/^ {2}Rows: {5}12 run, 0 errored, 12 cached, 0 pre-generated$/m);
    // Nothing was called, so nothing went to the live cache; the run store is ignored.
    expect(existsSync(join(dir, '.agentmark', 'cache'))).toBe(false);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('a live --no-cache run writes only to the git-ignored live cache, never to the replay folder; offline results stay', async () => {
    const dir = await cloneOfExample();
    const recorded = await snapshot(join(dir, REPLAY));
    const before = await offline(dir);
    expect(JSON.parse(before.stdout)).toHaveLength(4);

    const server = await startOpenAIServer();
    cleanups.push(() => server.close());
    const live = await runCli(['run-experiment', 'prompts', '--no-cache', '--format', 'jsonl'], {
      cwd: dir,
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' },
      timeoutMs: 60_000,
    });
    expect(live.stderr).not.toMatch(/^error:/m);
    // Every row of the four prompts went live (46 rows; judges and tool steps add more calls).
    expect(server.requests.length).toBeGreaterThanOrEqual(46);
    const liveRows = live.stdout.trim().split('\n').map((text) => JSON.parse(text) as { cached: boolean });
    expect(liveRows).toHaveLength(46);
    expect(liveRows.filter((row) => row.cached)).toEqual([]);
    expect((await readdir(join(dir, '.agentmark', 'cache'))).length).toBeGreaterThan(0);
    expect(await snapshot(join(dir, REPLAY))).toEqual(recorded);
    expect(git(dir, 'status', '--porcelain')).toBe('');

    // The offline example shows what it showed before the live run, still from the replay folder.
    const after = await offline(dir);
    expect(after.code).toBe(before.code);
    expect(results(after.stdout)).toEqual(results(before.stdout));
    const rows = (JSON.parse(after.stdout) as Array<{ rows: Array<{ cached: boolean }> }>).flatMap((document) => document.rows);
    expect(rows).toHaveLength(46);
    expect(rows.filter((row) => !row.cached)).toEqual([]);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });
});
