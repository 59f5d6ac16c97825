import { expect, test } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { useEmptyClones, usePostgresStore } from '../helpers/store-test.js';
import { manifest, row } from './fixtures.js';
import { makeLocalRun } from './store-runs.js';

const db = usePostgresStore('list');
const clone = useEmptyClones();
const cli = (args: string[], cwd: string, storeUrl = db.url) => runCli(args, { cwd, env: { AGENTMARK_STORE_URL: storeUrl }, timeoutMs: 60_000 });

// Ids sort by their UTC start time: D is the newest, A the oldest.
const A = '20261130T031500Z-a';
const B = '20261130T041500Z-b';
const C = '20261130T051500Z-c';
const D = '20261130T061500Z-d';

/**
 * Here: A only in this clone, B pushed (both), C made by another clone and pushed (store only),
 * D pushed half-way (in both, `running` in the store, `completed` here).
 */
async function fourRuns(): Promise<string> {
  const here = await clone();
  const other = await clone();
  await makeLocalRun(here, A, 2);
  await makeLocalRun(here, B, 3, { prompt: 'prompts/other.prompt.mdx' });
  await makeLocalRun(other, C, 4);
  await makeLocalRun(here, D, 5);
  expect((await cli(['runs', 'push', B], here)).code).toBe(0);
  expect((await cli(['runs', 'push', C], other)).code).toBe(0);
  await db.storage.createRun({ ...manifest(D), status: 'running' });
  await db.storage.appendRows(D, 0, [JSON.stringify(row(0))]);
  return here;
}

interface Listed { id: string; status: string; where?: string; storeStatus?: string }
const listed = (stdout: string): Array<Pick<Listed, 'id' | 'status' | 'where' | 'storeStatus'>> =>
  (JSON.parse(stdout) as Listed[]).map(({ id, status, where, storeStatus }) => ({ id, status, ...(where === undefined ? {} : { where }), ...(storeStatus === undefined ? {} : { storeStatus }) }));

test('with a store set, runs lists this clone’s runs and the store’s, one row a run id, newest first, each marked where it is', async () => {
  const here = await fourRuns();
  const json = await cli(['runs', '--format', 'json'], here);
  expect(json.stderr).toBe('');
  expect(json.code).toBe(0);
  expect(listed(json.stdout)).toEqual([
    { id: D, status: 'completed', where: 'both', storeStatus: 'running' },
    { id: C, status: 'completed', where: 'store' },
    { id: B, status: 'completed', where: 'both' },
    { id: A, status: 'completed', where: 'local' },
  ]);

  const table = await cli(['runs'], here);
  expect(table.code).toBe(0);
  const lines = table.stdout.split('\n');
  const cells = (line: string): string[] => line.split('│').slice(1, -1).map((cell) => cell.trim());
  const header = cells(lines.find((line) => line.includes('Run')) as string);
  const where = header.indexOf('Where');
  expect(header.slice(where - 1, where + 1)).toEqual(['Status', 'Where']);
  const body = lines.filter((line) => /│ 2026/.test(line)).map((line) => [cells(line)[0], cells(line)[where]]);
  expect(body).toEqual([[D, 'both*'], [C, 'store'], [B, 'both'], [A, 'local']]);
  expect(table.stdout.endsWith(`\n* ${D}: the store's copy is running; \`runs push\` completes it\n`)).toBe(true);
}, 120_000);

test('--limit takes the newest of the merged list, and --prompt narrows both sides', async () => {
  const here = await fourRuns();
  expect(listed((await cli(['runs', '--limit', '2', '--format', 'json'], here)).stdout).map((run) => run.id)).toEqual([D, C]);
  expect(listed((await cli(['runs', '--limit', '3', '--format', 'json'], here)).stdout).map((run) => [run.id, run.where])).toEqual([[D, 'both'], [C, 'store'], [B, 'both']]);
  expect(listed((await cli(['runs', '--prompt', 'prompts/other.prompt.mdx', '--format', 'json'], here)).stdout).map((run) => [run.id, run.where])).toEqual([[B, 'both']]);
}, 120_000);

test('a store that cannot be reached: one warning naming its host and port (no password), and this clone’s runs', async () => {
  const here = await clone();
  await makeLocalRun(here, A, 2);
  const result = await cli(['runs', '--format', 'json'], here, 'postgres://agentmark:s3cret@127.0.0.1:1/evals');
  expect(result.code).toBe(0);
  expect(result.stderr).toBe("warning: the team store is not available (cannot reach the store's database at 127.0.0.1:1 (ECONNREFUSED)): listing this clone's runs only\n");
  expect(listed(result.stdout)).toEqual([{ id: A, status: 'completed', where: 'local' }]);
}, 60_000);

test('without a store, runs has no Where column and no where field', async () => {
  const here = await clone();
  await makeLocalRun(here, A, 2);
  const result = await runCli(['runs', '--format', 'json'], { cwd: here });
  expect(listed(result.stdout)).toEqual([{ id: A, status: 'completed' }]);
  expect((await runCli(['runs'], { cwd: here })).stdout).not.toContain('Where');
}, 60_000);
