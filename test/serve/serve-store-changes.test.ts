import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RowResult } from '../../src/experiment/types.js';
import { createToken } from '../../src/serve/create-token.js';
import { LocalTokenStore, tokensFile } from '../../src/serve/local-token-store.js';
import { startTeamServer, type TeamServer } from '../../src/serve/team-server.js';
import { LocalStorage } from '../../src/store/index.js';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import { copyRun } from '../../src/store/transfer/copy-run.js';
import type { RunManifest } from '../../src/store/types.js';
import type { RowsResponse, RunsResponse } from '../../src/view/api-types.js';
import { runCli } from '../helpers/run-cli.js';
import { useEmptyClones, usePostgresStore } from '../helpers/store-test.js';
import { row, writeRun } from '../view/synthetic-run.js';

const db = usePostgresStore('serve_changes');
const clone = useEmptyClones();
const INDEXED = '20261201-100000.000-aaaaaa';
const COPIED = '20261201-110000.000-bbbbbb';
const KEPT = '20261201-120000.000-cccccc';

function rows(): RowResult[] {
  return Array.from({ length: 20 }, (_, k) => row(k, { evals: { exact: { passed: k % 4 !== 0, score: k % 4 === 0 ? 0 : 1 } } }));
}

/** A run made in a clone of its own: pushed as `runs push` does (its view index kept in the store), or stored without one (serve copies it). */
async function storedRun(id: string, how: 'pushed' | 'no index'): Promise<{ made: string; lines: string[] }> {
  const made = await clone();
  await writeRun(made, { id, evalNames: ['exact'], rows: rows() });
  const dir = join(made, '.agentmark', 'runs', id);
  const lines = (await readFile(join(dir, 'results.jsonl'), 'utf8')).split('\n').filter((l) => l !== '');
  if (how === 'pushed') await copyRun(new LocalStorage(made), db.storage, id);
  else {
    const { integrity, ...running } = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as RunManifest;
    await db.storage.createRun({ ...running, status: 'running' });
    await db.storage.appendRows(id, 0, lines);
    await db.storage.complete(id, { status: 'completed', integrity: integrity as NonNullable<RunManifest['integrity']> });
  }
  return { made, lines };
}

let server: TeamServer | undefined;
let serverStorage: PgStorage | undefined;
async function stopServe(): Promise<void> {
  await server?.close();
  await serverStorage?.close();
  server = undefined;
  serverStorage = undefined;
}
afterEach(stopServe);

type Get = (path: string) => Promise<{ status: number; body: unknown }>;

/** `agentmark serve` in this process over the test's store, in `root` (an empty clone by default). */
async function serve(root?: string): Promise<{ root: string; get: Get }> {
  const dir = root ?? (await clone());
  const tokens = new LocalTokenStore(tokensFile(dir));
  const { token } = await createToken(tokens, `vera${Math.random().toString(36).slice(2, 8)}`, 'viewer', new Date('2026-12-01T00:00:00Z'));
  serverStorage = await PgStorage.connect(db.url);
  server = await startTeamServer({ projectRoot: dir, tokens, storage: serverStorage, port: 0 });
  const base = server.url;
  return {
    root: dir,
    get: async (path) => {
      const answer = await fetch(`${base}${path.slice(1)}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: answer.status, body: await answer.json() };
    },
  };
}

/**
 * Asks until `done` holds: serve looks at the store at most once a second, and a change made
 * behind its back (another process's delete or push) is seen at its next look.
 */
async function until<T>(ask: () => Promise<T>, done: (answer: T) => boolean): Promise<T> {
  for (;;) {
    const answer = await ask();
    if (done(answer)) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const listed = async (get: Get): Promise<string[]> => ((await get('/api/runs')).body as RunsResponse).runs.map((run) => run.id);
const exists = (path: string): Promise<boolean> => access(path).then(() => true, () => false);

async function mirrorFolder(root: string, id: string): Promise<string> {
  const { readdir } = await import('node:fs/promises');
  const [key] = await readdir(join(root, '.agentmark', 'serve-mirror'));
  return join(root, '.agentmark', 'serve-mirror', key as string, 'runs', id);
}

describe('serve follows deletions and repairs in the store', () => {
  it('a run deleted from the store (`runs delete --store` from another clone, removeRun) leaves a running serve\'s list, and its routes answer 404', async () => {
    await storedRun(INDEXED, 'pushed');
    await storedRun(COPIED, 'no index');
    await storedRun(KEPT, 'pushed');
    const { root, get } = await serve();
    expect(await listed(get)).toEqual([KEPT, COPIED, INDEXED]);
    expect((await get(`/api/runs/${INDEXED}/rows?at=0`)).status).toBe(200);
    expect((await get(`/api/runs/${COPIED}/rows?at=0`)).status).toBe(200);

    const deleted = await runCli(['runs', 'delete', INDEXED, '--store'], { cwd: await clone(), env: { AGENTMARK_STORE_URL: db.url } });
    expect(deleted.stderr).toBe('');
    expect(deleted.code).toBe(0);
    expect(await db.storage.removeRun(COPIED)).toBe(true);
    expect(await until(() => listed(get), (ids) => ids.length === 1)).toEqual([KEPT]);
    for (const id of [INDEXED, COPIED]) {
      expect(await get(`/api/runs/${id}`)).toEqual({ status: 404, body: { error: 'not found' } });
      expect(await get(`/api/runs/${id}/rows?at=0`)).toEqual({ status: 404, body: { error: 'not found' } });
      expect(await get(`/api/runs/${id}/index`)).toEqual({ status: 404, body: { error: 'not found' } });
      expect(await exists(await mirrorFolder(root, id))).toBe(false);
    }
    expect((await get(`/api/runs/${KEPT}/rows?at=0`)).status).toBe(200);
  });

  it('a run deleted while no serve followed the store is not listed from the folder an earlier serve left', async () => {
    await storedRun(COPIED, 'no index');
    await storedRun(KEPT, 'pushed');
    const first = await serve();
    expect(await listed(first.get)).toEqual([KEPT, COPIED]);
    await stopServe();
    await db.storage.removeRun(COPIED);
    const second = await serve(first.root);
    expect(await listed(second.get)).toEqual([KEPT]);
    expect((await second.get(`/api/runs/${COPIED}`)).status).toBe(404);
  });

  it('a damaged run repaired by `runs push` while serve has it: serve copies it again and shows the repaired rows, no 409', async () => {
    const { made, lines } = await storedRun(COPIED, 'no index');
    await db.storage.pool.query(`UPDATE agentmark_rows SET line = replace(line, '"answer ', '"edited ') WHERE run_id = $1 AND seq = 3`, [COPIED]);
    const { get } = await serve();
    // The copy serve made holds the edited row: checked against the run's record, it is refused.
    const damaged = await get(`/api/runs/${COPIED}/rows?at=3`);
    expect(damaged.status).toBe(409);
    expect((damaged.body as { error: string }).error).toMatch(new RegExp(`^run ${COPIED}: its results do not match its manifest: 20 rows as recorded, but their content changed \\(sha256 [0-9a-f]{12}, recorded [0-9a-f]{12}\\)$`));

    const pushed = await copyRun(new LocalStorage(made), db.storage, COPIED);
    expect(pushed.repaired).toBe(true);
    const repaired = await until(() => get(`/api/runs/${COPIED}/rows?at=3`), (answer) => answer.status !== 409);
    expect(repaired).toEqual({ status: 200, body: { rows: [{ position: 3, row: JSON.parse(lines[3] as string) as RowResult }] } satisfies RowsResponse });
    expect((await get(`/api/runs/${COPIED}/index`)).status).toBe(200);
  });

  it('a run read from the store, damaged then repaired: 409 while damaged, the repaired rows after', async () => {
    const { made, lines } = await storedRun(INDEXED, 'pushed');
    const { get } = await serve();
    expect((await get(`/api/runs/${INDEXED}/rows?at=3`)).status).toBe(200);
    await db.storage.pool.query(`UPDATE agentmark_rows SET line = replace(line, '"answer ', '"edited ') WHERE run_id = $1 AND seq = 3`, [INDEXED]);
    expect((await get(`/api/runs/${INDEXED}/rows?at=3`)).status).toBe(409);
    expect((await copyRun(new LocalStorage(made), db.storage, INDEXED)).repaired).toBe(true);
    const repaired = await until(() => get(`/api/runs/${INDEXED}/rows?at=3`), (answer) => answer.status !== 409);
    expect(repaired).toEqual({ status: 200, body: { rows: [{ position: 3, row: JSON.parse(lines[3] as string) as RowResult }] } satisfies RowsResponse });
  });
});
