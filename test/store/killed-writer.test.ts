import type { ChildProcess } from 'node:child_process';
import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { ABANDONED_AFTER_MS } from '../../src/store/heartbeat.js';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { echoResponder, startOpenAIServer, type OpenAIResponder, type OpenAIServer } from '../helpers/openai-server.js';
import { usePostgresStore } from '../helpers/store-test.js';
import { commitAllOnMain } from '../helpers/git-repo.js';

const db = usePostgresStore('killed');
let server: OpenAIServer;
let responder: OpenAIResponder = echoResponder;
const projects: CliProject[] = [];

beforeAll(async () => {
  server = await startOpenAIServer({ handler: (request) => responder(request) });
});
afterAll(() => server.close());
afterEach(async () => {
  responder = echoResponder;
  for (const project of projects.splice(0)) await project.cleanup();
});

/** A clone of the echo project (3 rows) in its own git repository on branch main. */
async function clone(): Promise<CliProject> {
  const project = await cliProject();
  projects.push(project);
  commitAllOnMain(project.dir);
  return project;
}

/** Waits for the store to hold `n` rows of the run: the event itself, looked at again until it happens. */
async function storedRows(id: string, n: number): Promise<void> {
  while ((await db.storage.rowCount(id).catch(() => -1)) < n) await pause(20);
}

/**
 * Starts `run-experiment --concurrency 1` streaming to the store, answers the first row, holds the
 * second until the first is in the store, then kills the process with SIGKILL. Gives back the run id.
 */
async function killedAfterOneRow(project: CliProject): Promise<string> {
  let child: ChildProcess | undefined;
  let answered = 0;
  let second: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (second = resolve));
  responder = async (request) => {
    answered += 1;
    if (answered > 1) {
      second();
      await new Promise<never>(() => undefined);
    }
    return echoResponder(request);
  };
  const running = project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--concurrency', '1', '--no-cache'], {
    server,
    env: { AGENTMARK_STORE_URL: db.url },
    timeoutMs: 60_000,
    onSpawn: (spawned) => (child = spawned),
  });
  await held;
  const [id] = await project.runIds();
  await storedRows(id as string, 1);
  child?.kill('SIGKILL');
  const ended = await running;
  expect(ended.signal).toBe('SIGKILL');
  return id as string;
}

/** What a minute or two of silence does: the run's heartbeat set back past the threshold, in the database. */
async function silentForTooLong(id: string): Promise<void> {
  await db.storage.pool.query('UPDATE agentmark_runs SET heartbeat_at = now() - make_interval(secs => $2) WHERE id = $1', [id, ABANDONED_AFTER_MS / 1000 + 1]);
}

const rowsLeft = async (id: string): Promise<number> =>
  (await db.storage.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM agentmark_rows WHERE run_id = $1', [id])).rows[0]?.n ?? -1;

test('a writer killed with -9 leaves its run running, then abandoned in `runs` and `runs show`; --resume streams the rest and completes it', async () => {
  const project = await clone();
  const id = await killedAfterOneRow(project);
  const env = { AGENTMARK_STORE_URL: db.url };
  expect((await db.storage.getRun(id))?.status).toBe('running');
  await silentForTooLong(id);
  expect([(await db.storage.getRun(id))?.status, await rowsLeft(id)]).toEqual(['abandoned', 1]);

  // Here: the local journal says interrupted, the store's copy abandoned.
  const listed = await project.run(['runs', '--format', 'json'], { env });
  expect((JSON.parse(listed.stdout) as Array<{ id: string; status: string; where: string; storeStatus?: string }>).map((r) => [r.id, r.status, r.where, r.storeStatus])).toEqual([[id, 'interrupted', 'both', 'abandoned']]);
  const table = await project.run(['runs'], { env });
  expect(table.stdout).toContain(`* ${id}: the store's copy is abandoned\n`);

  // Another clone sees it as the store has it, abandoned: never a baseline, and `runs show` says so.
  const other = await clone();
  const theirs = await other.run(['runs', '--format', 'json'], { env });
  expect((JSON.parse(theirs.stdout) as Array<{ id: string; status: string; where: string }>).map((r) => [r.id, r.status, r.where])).toEqual([[id, 'abandoned', 'store']]);
  const shown = await other.run(['runs', 'show', id], { env });
  expect(shown.code).toBe(2);
  expect(shown.stderr).toContain(`run ${id} is abandoned in`);
  expect(shown.stderr).toContain(`agentmark run-experiment prompts/echo.prompt.mdx --resume ${id}`);
  const main = await other.run(['compare', '@main', 'latest'], { env });
  expect(main.code).toBe(2);
  // The store has no completed run on main; neither has this clone.
  expect(main.stderr).toContain('error: @main: no finished run at commit');

  // Resumed where it ran: the two rows left are run and streamed, and the run completes in the store.
  responder = echoResponder;
  const resumed = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--resume', id, '--no-cache'], { server, env });
  // The fixture's third row expects GAMMA: the echo fails it (exit 1).
  expect(resumed.code).toBe(1);
  expect(await db.storage.getRun(id)).toMatchObject({ status: 'completed', integrity: { rows: 3 } });
  expect(await rowsLeft(id)).toBe(3);
  await db.storage.checkRun(id);
  await silentForTooLong(id);
  expect((await db.storage.getRun(id))?.status).toBe('completed');
}, 120_000);

test('a killed run finished without the store (resumed offline): `runs push` completes the abandoned copy with every row once', async () => {
  const project = await clone();
  const id = await killedAfterOneRow(project);
  await silentForTooLong(id);
  responder = echoResponder;
  const offline = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--resume', id, '--no-cache'], { server });
  expect(offline.code).toBe(1);
  expect([(await db.storage.getRun(id))?.status, await rowsLeft(id)]).toEqual(['abandoned', 1]);
  const pushed = await project.run(['runs', 'push', id], { env: { AGENTMARK_STORE_URL: db.url } });
  expect([pushed.code, pushed.stderr]).toEqual([0, `pushing ${id}: 3/3 rows\n`]);
  expect(pushed.stdout).toContain(`pushed ${id}: 3 rows (2 sent now`);
  expect(await db.storage.getRun(id)).toMatchObject({ status: 'completed', integrity: { rows: 3 } });
  expect(await rowsLeft(id)).toBe(3);
  await db.storage.checkRun(id);
}, 120_000);
