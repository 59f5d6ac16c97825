import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';
import { makeLocalRun } from './store-runs.js';

let server: TestPostgres;
let made = 0;
let url: string;
let storage: PgStorage;
let project: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server.stop());
beforeEach(async () => {
  made += 1;
  url = await server.createDatabase(`push_${made}`);
  storage = await PgStorage.connect(url, { migrate: true });
  project = await tempProject({ 'agentmark.json': '{ "version": "2.0.0" }\n' });
});
afterEach(async () => {
  await storage.close();
  await project.cleanup();
});

const cli = (args: string[], dir = project.dir) => runCli(args, { cwd: dir, env: { AGENTMARK_STORE_URL: url }, timeoutMs: 120_000 });
const ID = '20261130T031500Z-a';

async function stored(id: string): Promise<{ status?: string; rows: number }> {
  const manifest = await storage.getRun(id);
  const { rows } = await storage.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM agentmark_rows WHERE run_id = $1', [id]);
  return { ...(manifest === undefined ? {} : { status: manifest.status }), rows: rows[0]?.n ?? 0 };
}

test('pushing a run twice keeps one copy, completed with its integrity record', async () => {
  const integrity = await makeLocalRun(project.dir, ID, 25_000);
  const first = await cli(['runs', 'push', ID]);
  expect(first.stdout).toBe(`pushed ${ID}: 25000 rows to ${storage.location}\n`);
  expect(first.stderr).toBe(`pushing ${ID}: 10000/25000 rows\npushing ${ID}: 20000/25000 rows\npushing ${ID}: 25000/25000 rows\n`);
  const again = await cli(['runs', 'push']);
  expect(again.stdout).toBe(`${ID}: already in ${storage.location} (25000 rows)\n`);
  expect(await stored(ID)).toEqual({ status: 'completed', rows: 25_000 });
  expect((await storage.getRun(ID))?.integrity).toEqual(integrity);
  await storage.checkRun(ID);
}, 120_000);

test('two pushes of the same run at once keep one copy', async () => {
  await makeLocalRun(project.dir, ID, 30_000);
  const results = await Promise.all([cli(['runs', 'push', ID]), cli(['runs', 'push', ID])]);
  expect(results.map((r) => [r.code, r.stderr.includes('Error')])).toEqual([[0, false], [0, false]]);
  expect(await stored(ID)).toEqual({ status: 'completed', rows: 30_000 });
  await storage.checkRun(ID);
}, 120_000);

test('a damaged run is refused with its integrity error, and nothing of it is stored', async () => {
  await makeLocalRun(project.dir, ID, 3);
  const path = join(project.dir, '.agentmark', 'runs', ID, 'results.jsonl');
  await writeFile(path, (await readFile(path, 'utf8')).replace('"answer 1"', '"answer one"'));
  const result = await cli(['runs', 'push', ID]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`run ${ID}: its results do not match its manifest: 3 rows as recorded, but their content changed`);
  expect(await stored(ID)).toEqual({ rows: 0 });
});

test('a 100,000-row push killed with -9 stays running in the store; pushed again it completes with exactly 100,000 rows', async () => {
  const integrity = await makeLocalRun(project.dir, ID, 100_000);
  const killed = await runCli(['runs', 'push', ID], {
    cwd: project.dir,
    env: { AGENTMARK_STORE_URL: url },
    timeoutMs: 120_000,
    onSpawn: (child) => child.stderr?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('rows')) child.kill('SIGKILL');
    }),
  });
  expect(killed.signal).toBe('SIGKILL');
  const partial = await stored(ID);
  expect(partial.status).toBe('running');
  expect(partial.rows).toBeGreaterThan(0);
  expect(partial.rows).toBeLessThan(100_000);
  const again = await cli(['runs', 'push', ID]);
  expect(again.code).toBe(0);
  expect(again.stdout).toBe(`pushed ${ID}: 100000 rows (${100_000 - partial.rows} sent now, the rest by an earlier push) to ${storage.location}\n`);
  expect(await stored(ID)).toEqual({ status: 'completed', rows: 100_000 });
  expect((await storage.getRun(ID))?.integrity).toEqual(integrity);
  await storage.checkRun(ID);
}, 120_000);

test('a run pushed from one clone is pulled into another folder with no shared files, rows and record intact', async () => {
  const integrity = await makeLocalRun(project.dir, ID, 5);
  expect((await cli(['runs', 'push'])).code).toBe(0);
  const other = await tempProject({ 'agentmark.json': '{ "version": "2.0.0" }\n' });
  try {
    const pulled = await cli(['runs', 'pull', 'latest'], other.dir);
    expect(pulled.stdout).toBe(`pulled ${ID}: 5 rows into ${join(other.dir, '.agentmark', 'runs')}\n`);
    expect(await readFile(join(other.dir, '.agentmark', 'runs', ID, 'results.jsonl'), 'utf8')).toBe(await readFile(join(project.dir, '.agentmark', 'runs', ID, 'results.jsonl'), 'utf8'));
    const manifest = JSON.parse(await readFile(join(other.dir, '.agentmark', 'runs', ID, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ id: ID, status: 'completed', integrity });
    expect((await cli(['runs', 'pull', ID], other.dir)).stdout).toBe(`${ID}: already in ${join(other.dir, '.agentmark', 'runs')} (5 rows)\n`);
  } finally {
    await other.cleanup();
  }
});

test('runs pull of a run already here whose results file was edited, or cut short, repairs it from the store and keeps its labels', async () => {
  await makeLocalRun(project.dir, ID, 5);
  expect((await cli(['runs', 'push'])).code).toBe(0);
  const source = await readFile(join(project.dir, '.agentmark', 'runs', ID, 'results.jsonl'), 'utf8');
  const other = await tempProject({ 'agentmark.json': '{ "version": "2.0.0" }\n' });
  try {
    const runs = join(other.dir, '.agentmark', 'runs');
    const results = join(runs, ID, 'results.jsonl');
    expect((await cli(['runs', 'pull', ID], other.dir)).code).toBe(0);
    expect((await cli(['annotate', ID, '2', 'exact', '--pass', '--reviewer', 'ana'], other.dir)).code).toBe(0);
    const labels = await readFile(join(runs, ID, 'annotations.jsonl'), 'utf8');
    const manifest = await readFile(join(runs, ID, 'manifest.json'), 'utf8');
    const files = (await readdir(join(runs, ID))).sort();

    await writeFile(results, source.replace('"answer 1"', '"answer one"'));
    const edited = await cli(['runs', 'pull', ID], other.dir);
    expect([edited.code, edited.stdout, edited.stderr]).toEqual([0, `repaired ${ID} in ${runs}: its results did not match its integrity record; 5 rows brought again\n`, '']);
    expect(await readFile(results, 'utf8')).toBe(source);

    await writeFile(results, source.slice(0, source.indexOf('\n') + 1));
    expect((await cli(['runs', 'pull', ID], other.dir)).stdout).toBe(`repaired ${ID} in ${runs}: its results did not match its integrity record; 5 rows brought again\n`);
    expect(await readFile(results, 'utf8')).toBe(source);
    expect(await readFile(join(runs, ID, 'annotations.jsonl'), 'utf8')).toBe(labels);
    expect(await readFile(join(runs, ID, 'manifest.json'), 'utf8')).toBe(manifest);
    expect((await cli(['runs', 'pull', ID], other.dir)).stdout).toBe(`${ID}: already in ${runs} (5 rows)\n`);
    // Nothing left beside the run's files by the repairs.
    expect((await readdir(join(runs, ID))).sort()).toEqual(files);
  } finally {
    await other.cleanup();
  }
});
