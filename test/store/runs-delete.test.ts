import { expect, test } from 'vitest';
import { ABANDONED_AFTER_MS } from '../../src/store/heartbeat.js';
import { LocalStorage } from '../../src/store/local/local-storage.js';
import { copyRun } from '../../src/store/transfer/copy-run.js';
import { runCli } from '../helpers/run-cli.js';
import { useEmptyClones, usePostgresStore } from '../helpers/store-test.js';
import { manifest, row } from './fixtures.js';
import { makeLocalRun } from './store-runs.js';

const db = usePostgresStore('delete');
const clone = useEmptyClones();
const ID = '20261202T063000Z-del';

const left = async (table: string, column: string, id: string): Promise<number> =>
  (await db.storage.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [id])).rows[0]?.n ?? -1;

test('runs delete <run> --store removes the run, its rows and labels from the store; the clone keeps its copy', async () => {
  const dir = await clone();
  await makeLocalRun(dir, ID, 3);
  await copyRun(new LocalStorage(dir), db.storage, ID);
  await db.storage.appendAnnotations(ID, [{ row: 'r0', index: 0, repeat: 0, outputHash: 'h', eval: 'exact', value: true, reviewer: 'vera', at: '2026-12-02T06:00:00.000Z' }]);
  const deleted = await runCli(['runs', 'delete', ID, '--store'], { cwd: dir, env: { AGENTMARK_STORE_URL: db.url } });
  expect([deleted.code, deleted.stderr]).toEqual([0, '']);
  expect(deleted.stdout).toBe(`deleted ${ID} (completed) from ${db.storage.location}: 3 rows, 1 label\n`);
  expect([await left('agentmark_runs', 'id', ID), await left('agentmark_rows', 'run_id', ID), await left('agentmark_annotations', 'run_id', ID)]).toEqual([0, 0, 0]);
  expect(await new LocalStorage(dir).getRun(ID)).toMatchObject({ id: ID, status: 'completed' });
}, 60_000);

test('a run still written is refused; once abandoned it goes; without --store it is a usage error', async () => {
  const dir = await clone();
  await db.storage.createRun(manifest(ID));
  await db.storage.appendRows(ID, 0, [JSON.stringify(row(0))]);
  const env = { AGENTMARK_STORE_URL: db.url };
  const live = await runCli(['runs', 'delete', ID, '--store'], { cwd: dir, env });
  expect(live.code).toBe(2);
  expect(live.stderr).toContain(`run ${ID} is being written (its writer was heard from in the last 2 minutes): it is not deleted`);
  expect(await left('agentmark_rows', 'run_id', ID)).toBe(1);
  const local = await runCli(['runs', 'delete', ID], { cwd: dir, env });
  expect(local.code).toBe(2);
  expect(local.stderr).toContain('runs delete deletes from the team store only: add --store');
  await db.storage.pool.query('UPDATE agentmark_runs SET heartbeat_at = now() - make_interval(secs => $2) WHERE id = $1', [ID, ABANDONED_AFTER_MS / 1000 + 1]);
  const gone = await runCli(['runs', 'delete', ID, '--store'], { cwd: dir, env });
  expect(gone.stdout).toBe(`deleted ${ID} (abandoned) from ${db.storage.location}: 1 row, 0 labels\n`);
  expect([await left('agentmark_runs', 'id', ID), await left('agentmark_rows', 'run_id', ID)]).toEqual([0, 0]);
}, 60_000);
