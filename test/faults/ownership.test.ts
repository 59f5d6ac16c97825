/**
 * One run, one writer: a resume while the run is going, two resumes at once, and after any
 * kill -9 every stored row's answer in the response cache.
 */
import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { KEY, faultProject, readManifest, readResults, runIds, type StoredRow } from './fault-project.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(rows: number, latencyMs: number): Promise<{ dir: string; server: OpenAIServer; env: NodeJS.ProcessEnv }> {
  const project = await faultProject(rows);
  const server = await startOpenAIServer({ handler: (request) => ({ text: request.lastUserText, latencyMs }) });
  cleanups.push(project.cleanup, () => server.close());
  return { dir: project.dir, server, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY } };
}

const keysOf = (rows: StoredRow[]): string[] => rows.map((row) => `${row.index}:${row.repeat}`);
const ARGS = ['run-experiment', 'prompts/echo.prompt.mdx', '--concurrency', '4', '--no-cache', '--quiet', '--format', 'jsonl', '--timeout', '10'];

/** Starts the CLI; `child` resolves once it is spawned. */
function start(dir: string, env: NodeJS.ProcessEnv, args: string[]): { done: Promise<CliResult>; child: Promise<ChildProcess> } {
  let spawned: (child: ChildProcess) => void = () => {};
  const child = new Promise<ChildProcess>((resolve) => (spawned = resolve));
  return { done: runCli(args, { cwd: dir, env, timeoutMs: 120_000, onSpawn: spawned }), child };
}

async function rowsStored(dir: string): Promise<number> {
  const [id] = await runIds(dir);
  return id === undefined ? 0 : (await readResults(dir, id)).rows.length;
}

/** The refusal a second writer gets, naming the owner. */
function lockedMessage(runId: string, pid: number | undefined): RegExp {
  const since = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';
  const id = runId.replace(/\./g, '\\.');
  return new RegExp(`^error: \\.agentmark/runs/${id}/run\\.lock: run ${id} is in use by process ${pid} on ${hostname()} since ${since}\\n  hint: wait for that process to finish, or stop it \\(Ctrl-C\\) and then continue with --resume `);
}

describe('one run, one writer', () => {
  it('a --resume while the run is still going is refused (exit 2) naming the owner; the run ends with every row once', async () => {
    const { dir, env } = await setup(300, 40);
    const first = start(dir, env, ARGS);
    await expect.poll(() => rowsStored(dir), { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(8);
    const [runId] = await runIds(dir);
    const id = runId ?? '';
    const second = await runCli([...ARGS, '--resume', id], { cwd: dir, env, timeoutMs: 60_000 });
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(lockedMessage(id, (await first.child).pid));
    expect(second.stdout).toBe('');
    const done = await first.done;
    expect(done.code).toBe(0);
    const { rows } = await readResults(dir, id);
    expect(rows).toHaveLength(300);
    expect(new Set(keysOf(rows)).size).toBe(300);
  }, 120_000);

  it('two --resume at once after a kill -9: one takes the run over, the other is refused; no row twice', async () => {
    const { dir, env } = await setup(600, 40);
    const first = start(dir, env, ARGS);
    await expect.poll(() => rowsStored(dir), { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(20);
    (await first.child).kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    const [runId] = await runIds(dir);
    const id = runId ?? '';
    const before = (await readResults(dir, id)).rows.length;
    expect(before).toBeLessThan(600);

    const a = start(dir, env, [...ARGS, '--resume', id]);
    const b = start(dir, env, [...ARGS, '--resume', id]);
    const results = await Promise.all([a.done, b.done]);
    const pids = [(await a.child).pid, (await b.child).pid];
    const loser = results.findIndex((result) => result.code === 2);
    const winner = 1 - loser;
    expect(loser).not.toBe(-1);
    expect(results[winner]?.code).toBe(0);
    expect(results[loser]?.stderr).toMatch(lockedMessage(id, pids[winner]));
    expect(results[winner]?.stderr).toMatch(new RegExp(`^warning: took over run ${id.replace(/\./g, '\\.')}: its lock was left by process ${(await first.child).pid} \\(started [^)]+\\), which is no longer running\\n$`));

    const { rows, tornTail } = await readResults(dir, id);
    expect(tornTail).toBe(false);
    expect(rows).toHaveLength(600);
    expect(new Set(keysOf(rows))).toEqual(new Set(Array.from({ length: 600 }, (_, i) => `${i}:0`)));
    expect((await readManifest(dir, id)).summary).toMatchObject({ rows: 600, errored: 0 });
    // A third resume finds nothing to do and no lock in the way.
    const third = await runCli([...ARGS, '--resume', id], { cwd: dir, env, timeoutMs: 60_000 });
    expect(third.code).toBe(0);
    expect((await readResults(dir, id)).rows).toHaveLength(600);
  }, 180_000);
});

describe('kill -9 and the response cache', () => {
  it('after a kill at any point, --cache-only finds the answer of every row the killed run stored', async () => {
    const { dir, env, server } = await setup(400, 2);
    // Killed when the server gets its k-th request: from right at the start (the cache's segment
    // files are still being opened, perhaps no row stored yet) to mid-run, whatever the machine.
    let answered = 0;
    let killAt = Infinity;
    let kill: () => void = () => {};
    server.setHandler((request) => {
      if (++answered === killAt) kill();
      return { text: request.lastUserText, latencyMs: 2 };
    });
    const storedPerKill: number[] = [];
    for (const k of [1, 2, 5, 15, 40, 120]) {
      await rm(join(dir, '.agentmark'), { recursive: true, force: true });
      answered = 0;
      killAt = k;
      // A request before the spawn is seen here (it cannot be) would still be a kill.
      let due = false;
      kill = () => (due = true);
      const run = start(dir, env, ARGS);
      const child = await run.child;
      kill = () => child.kill('SIGKILL');
      if (due) kill();
      expect((await run.done).signal).toBe('SIGKILL');
      const [killedId] = await runIds(dir);
      const stored = (await readResults(dir, killedId ?? '')).rows;
      storedPerKill.push(stored.length);

      const requests = server.requests.length;
      const replay = await runCli(['run-experiment', 'prompts/echo.prompt.mdx', '--cache-only', '--quiet', '--format', 'jsonl'], { cwd: dir, env, timeoutMs: 60_000 });
      expect(server.requests.length).toBe(requests);
      const replayed = new Map(
        replay.stdout
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line) as StoredRow)
          .map((row) => [row.index, row]),
      );
      for (const row of stored) {
        expect(replayed.get(row.index)?.errorCode, `row ${row.index} (killed at request ${k})`).toBeNull();
        expect(replayed.get(row.index)?.output).toBe(`question ${row.index}`);
      }
    }
    // The later kills come after 116 or more answers: rows were stored, and checked above.
    expect(storedPerKill.at(-1)).toBeGreaterThan(0);
  }, 180_000);
});
