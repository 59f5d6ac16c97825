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
import type { RowIndex, RowsResponse, SearchResponse } from '../../src/view/api-types.js';
import { useEmptyClones, usePostgresStore } from '../helpers/store-test.js';
import { row, writeRun } from '../view/synthetic-run.js';

const db = usePostgresStore('serve_pages');
const clone = useEmptyClones();
const RUN = '20261201-100000.000-aaaaaa';
const OTHER = '20261201-110000.000-bbbbbb';

/** Rows in a finish order that is not the dataset's (the store keeps finish order): 40 rows, a fifth failing. */
function rows(): RowResult[] {
  const order = Array.from({ length: 40 }, (_, k) => (k * 17) % 40);
  return order.map((index) => row(index, { output: index % 5 === 0 ? `wrong ${index}` : `answer ${index}`, evals: { exact: { passed: index % 5 !== 0, score: index % 5 === 0 ? 0 : 1 } } }));
}

/** A run made in one project (with the view index the store writes beside its rows) and pushed as `runs push` does. */
async function pushedRun(id: string): Promise<{ made: string; lines: string[]; columns: RowIndex }> {
  const made = await clone();
  await writeRun(made, { id, evalNames: ['exact'], rows: rows() });
  const local = new LocalStorage(made);
  await copyRun(local, db.storage, id);
  const lines = (await readFile(join(made, '.agentmark', 'runs', id, 'results.jsonl'), 'utf8')).split('\n').filter((l) => l !== '');
  return { made, lines, columns: (await local.viewColumns(id)) as RowIndex };
}

let server: TeamServer | undefined;
let serverStorage: PgStorage | undefined;
afterEach(async () => {
  await server?.close();
  await serverStorage?.close();
  server = undefined;
  serverStorage = undefined;
});

/** `agentmark serve` in this process over the test's store, in an empty clone; a viewer token for it. */
async function serve(): Promise<{ root: string; get: (path: string) => Promise<{ status: number; body: unknown }> }> {
  const root = await clone();
  const tokens = new LocalTokenStore(tokensFile(root));
  const { token } = await createToken(tokens, 'vera', 'viewer', new Date('2026-12-01T00:00:00Z'));
  serverStorage = await PgStorage.connect(db.url);
  server = await startTeamServer({ projectRoot: root, tokens, storage: serverStorage, port: 0 });
  const base = server.url;
  return {
    root,
    get: async (path) => {
      const answer = await fetch(`${base}${path.slice(1)}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: answer.status, body: await answer.json() };
    },
  };
}

async function mirrorFolder(root: string, id: string): Promise<string> {
  const { readdir } = await import('node:fs/promises');
  const [key] = await readdir(join(root, '.agentmark', 'serve-mirror'));
  return join(root, '.agentmark', 'serve-mirror', key as string, 'runs', id);
}

const exists = (path: string): Promise<boolean> => access(path).then(() => true, () => false);

describe('serve reads a pushed run from the store a page at a time', () => {
  it('runs push keeps the run\'s view index in the store; serve answers its index and rows from there, with no copy of its results here', async () => {
    const { lines, columns } = await pushedRun(RUN);
    const { rows: kept } = await db.storage.pool.query<{ rows: number }>('SELECT rows FROM agentmark_view_index WHERE run_id = $1', [RUN]);
    expect(kept).toEqual([{ rows: 40 }]);

    const { root, get } = await serve();
    const index = await get(`/api/runs/${RUN}/index`);
    expect(index).toEqual({ status: 200, body: columns });
    // Positions are finish order, as in the pushed folder's results.jsonl.
    const page = await get(`/api/runs/${RUN}/rows?at=0,1,39`);
    expect(page.status).toBe(200);
    expect((page.body as RowsResponse).rows).toEqual([0, 1, 39].map((position) => ({ position, row: JSON.parse(lines[position] as string) as RowResult })));
    // Dataset row 17 finished 21st: (21 × 17) mod 40 = 17.
    const detail = await get(`/api/runs/${RUN}/rows/17`);
    expect(detail.status).toBe(200);
    expect((detail.body as { rows: RowResult[] }).rows.map((r) => r.output)).toEqual(['answer 17']);
    // "wrong 1" is in the outputs of rows 10 (position 10: 10 × 17 mod 40 = 10) and none other ("wrong 1x" would be, none is failing).
    expect(await get(`/api/runs/${RUN}/search?q=wrong%2010`)).toEqual({ status: 200, body: { positions: [10] } satisfies SearchResponse });
    const folder = await mirrorFolder(root, RUN);
    expect(await exists(join(folder, 'manifest.json'))).toBe(true);
    expect(await exists(join(folder, 'results.jsonl'))).toBe(false);
  });

  it('a route that reads runs whole (compare, grid) copies them then, and answers as over folders', async () => {
    await pushedRun(RUN);
    await pushedRun(OTHER);
    const { root, get } = await serve();
    expect(await exists(join(await mirrorFolder(root, RUN), 'results.jsonl'))).toBe(false);
    const compared = await get(`/api/compare/${RUN}/${OTHER}`);
    expect(compared.status).toBe(200);
    expect((compared.body as { base: { rows: number } }).base.rows).toBe(40);
    for (const id of [RUN, OTHER]) expect((await readFile(join(await mirrorFolder(root, id), 'results.jsonl'), 'utf8')).split('\n').filter((l) => l !== '')).toHaveLength(40);
    expect((await get(`/api/grid/${RUN}/${OTHER}`)).status).toBe(200);
  });

  it('a row edited in the store after the push: the run answers 409 (index and rows), never the edited row', async () => {
    await pushedRun(RUN);
    const { get } = await serve();
    expect((await get(`/api/runs/${RUN}/rows?at=3`)).status).toBe(200);
    await db.storage.pool.query(`UPDATE agentmark_rows SET line = replace(line, '"answer ', '"edited ') WHERE run_id = $1 AND seq = 3`, [RUN]);
    const message = `the rows of run ${RUN} in the store changed after it was completed`;
    expect(await get(`/api/runs/${RUN}/rows?at=3`)).toEqual({ status: 409, body: { error: message } });
    expect(await get(`/api/runs/${RUN}/index`)).toEqual({ status: 409, body: { error: message } });
  });

  it('a run stored without a view index is copied once, and the index its copy made is kept in the store for the next server', async () => {
    const made = await clone();
    await writeRun(made, { id: RUN, evalNames: ['exact'], rows: rows() });
    const manifest = JSON.parse(await readFile(join(made, '.agentmark', 'runs', RUN, 'manifest.json'), 'utf8')) as RunManifest;
    const lines = (await readFile(join(made, '.agentmark', 'runs', RUN, 'results.jsonl'), 'utf8')).split('\n').filter((l) => l !== '');
    const { integrity, ...running } = manifest;
    await db.storage.createRun({ ...running, status: 'running' });
    await db.storage.appendRows(RUN, 0, lines);
    await db.storage.complete(RUN, { status: 'completed', integrity: integrity as NonNullable<RunManifest['integrity']> });

    const first = await serve();
    expect((await first.get(`/api/runs/${RUN}/rows?at=0`)).status).toBe(200);
    expect(await exists(join(await mirrorFolder(first.root, RUN), 'results.jsonl'))).toBe(true);
    const { rows: kept } = await db.storage.pool.query<{ rows: number; sha256: string }>('SELECT rows, sha256 FROM agentmark_view_index WHERE run_id = $1', [RUN]);
    expect(kept).toEqual([{ rows: 40, sha256: integrity?.sha256 }]);
    await server?.close();
    await serverStorage?.close();

    const second = await serve();
    expect((await second.get(`/api/runs/${RUN}/index`)).body).toEqual(await new LocalStorage(made).viewColumns(RUN));
    expect(await exists(join(await mirrorFolder(second.root, RUN), 'results.jsonl'))).toBe(false);
  });
});
