import { access, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { createToken } from '../../src/serve/create-token.js';
import { LocalTokenStore, tokensFile } from '../../src/serve/local-token-store.js';
import { startTeamServer } from '../../src/serve/team-server.js';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import { startOpenAIServer, echoResponder, type OpenAIServer } from '../helpers/openai-server.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { commitAllOnMain } from '../helpers/git-repo.js';

let db: TestPostgres;
let made = 0;
let url: string;
let storage: PgStorage;
let server: OpenAIServer;
const projects: CliProject[] = [];

beforeAll(async () => {
  db = await startPostgres();
  server = await startOpenAIServer({ handler: echoResponder });
}, 60_000);
afterAll(async () => {
  await server.close();
  await db.stop();
});
beforeEach(async () => {
  made += 1;
  url = await db.createDatabase(`stored_index_${made}`);
  storage = await PgStorage.connect(url, { migrate: true });
});
afterEach(async () => {
  await storage.close();
  for (const project of projects.splice(0)) await project.cleanup();
});

async function clone(): Promise<CliProject> {
  const project = await cliProject();
  projects.push(project);
  commitAllOnMain(project.dir, '2026-12-01T12:00:00Z');
  return project;
}

interface KeptIndex {
  rows: number;
  sha256: string;
  columns: string;
}

async function keptIndex(store: PgStorage, id: string): Promise<KeptIndex[]> {
  const { rows } = await store.pool.query<KeptIndex>('SELECT rows, sha256, columns FROM agentmark_view_index WHERE run_id = $1', [id]);
  return rows;
}

/** What `runs push` of the same local run stores: pushed into a database of its own, read back. */
async function pushedIndex(project: CliProject, id: string): Promise<KeptIndex[]> {
  made += 1;
  const other = await db.createDatabase(`stored_index_push_${made}`);
  await (await PgStorage.connect(other, { migrate: true })).close();
  const pushed = await project.run(['runs', 'push', id], { env: { AGENTMARK_STORE_URL: other } });
  expect(pushed.code).toBe(0);
  const store = await PgStorage.connect(other);
  try {
    return await keptIndex(store, id);
  } finally {
    await store.close();
  }
}

/** `agentmark serve` over the store in an empty clone: the run's index answers 200 and its mirror folder holds no results (no copy). */
async function expectServedWithoutCopy(id: string): Promise<void> {
  const root = (await clone()).dir;
  const tokens = new LocalTokenStore(tokensFile(root));
  const { token } = await createToken(tokens, 'vera', 'viewer', new Date('2026-12-01T00:00:00Z'));
  const serverStorage = await PgStorage.connect(url);
  const team = await startTeamServer({ projectRoot: root, tokens, storage: serverStorage, port: 0 });
  try {
    const answer = await fetch(`${team.url}api/runs/${id}/index`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { index: number[] }).index).toHaveLength(3);
    const [key] = await readdir(join(root, '.agentmark', 'serve-mirror'));
    const folder = join(root, '.agentmark', 'serve-mirror', key as string, 'runs', id);
    expect(await access(join(folder, 'manifest.json')).then(() => true, () => false)).toBe(true);
    expect(await access(join(folder, 'results.jsonl')).then(() => true, () => false)).toBe(false);
  } finally {
    await team.close();
    await serverStorage.close();
  }
}

test('a run streamed to the store by run-experiment stores its view index as it completes: the one runs push would store; serve opens it with no copy', async () => {
  const laptop = await clone();
  const run = await laptop.run(['run-experiment', 'prompts/echo.prompt.mdx'], { server, env: { AGENTMARK_STORE_URL: url } });
  // The echo fails the fixture's GAMMA row: the gate fails (exit 1).
  expect(run.code).toBe(1);
  const [id] = await laptop.runIds();
  const stored = await storage.getRun(id as string);
  expect(stored).toMatchObject({ status: 'completed', integrity: { rows: 3 } });
  const kept = await keptIndex(storage, id as string);
  expect(kept).toEqual([{ rows: 3, sha256: stored?.integrity?.sha256, columns: expect.any(String) as string }]);
  expect(kept).toEqual(await pushedIndex(laptop, id as string));
  await expectServedWithoutCopy(id as string);
}, 120_000);

test('a run merged in the store (the last shard\'s auto-merge, and merge --store) stores its view index: the one runs push would store; serve opens it with no copy', async () => {
  const machines = [await clone(), await clone()];
  const env = { AGENTMARK_STORE_URL: url, AGENTMARK_SHARD_GROUP: 'gha-9001' };
  for (const [i, machine] of machines.entries()) expect((await machine.run(['run-experiment', 'prompts/echo.prompt.mdx', '--shard', `${i + 1}/2`], { server, env })).code).toBeLessThan(2);
  const merged = (await storage.listRuns()).find((m) => m.merged !== undefined);
  expect(merged).toMatchObject({ status: 'completed', integrity: { rows: 3 }, merged: { group: 'gha-9001' } });
  const id = merged?.id as string;
  const kept = await keptIndex(storage, id);
  expect(kept).toEqual([{ rows: 3, sha256: merged?.integrity?.sha256, columns: expect.any(String) as string }]);
  // The last shard's machine has the merged run in its .agentmark/runs/, as `runs push` would send it.
  expect(kept).toEqual(await pushedIndex(machines[1] as CliProject, id));
  await expectServedWithoutCopy(id);

  // merge --store by hand, of a group pushed without a store at run time.
  for (const [i, machine] of machines.entries()) {
    expect((await machine.run(['run-experiment', 'prompts/echo.prompt.mdx', '--shard', `${i + 1}/2`, '--shard-group', 'nightly-3'], { server })).code).toBeLessThan(2);
    expect((await machine.run(['runs', 'push', 'latest'], { env: { AGENTMARK_STORE_URL: url } })).code).toBe(0);
  }
  const ci = await clone();
  expect((await ci.run(['merge', '--store', 'nightly-3'], { env: { AGENTMARK_STORE_URL: url } })).code).toBe(1);
  const byHand = (await storage.listRuns()).find((m) => m.merged?.group === 'nightly-3');
  expect((await keptIndex(storage, byHand?.id as string)).map((k) => k.rows)).toEqual([3]);
  expect(await keptIndex(storage, byHand?.id as string)).toEqual(await pushedIndex(ci, byHand?.id as string));
}, 180_000);
