import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPool } from '../../src/store/postgres/pg-client.js';
import { MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { appliedVersions, migrate } from '../../src/store/postgres/schema.js';
import { storeSetting } from '../../src/store/store-config.js';
import { maskUrl } from '../../src/store/mask-url.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server.stop());

test('migrations apply in one transaction: a failing one leaves none of them applied', async () => {
  const pool = await createPool(await server.createDatabase('tx'));
  const broken = [...MIGRATIONS, { version: 2, name: 'broken', sql: 'CREATE TABLE agentmark_runs (id text)' }];
  await expect(migrate(pool, 'db', broken)).rejects.toThrow('relation "agentmark_runs" already exists');
  expect(await appliedVersions(pool)).toEqual([]);
  const { rows } = await pool.query<{ found: string | null }>("SELECT to_regclass('agentmark_runs')::text AS found");
  expect(rows[0]?.found).toBeNull();
  expect(await migrate(pool, 'db')).toEqual(MIGRATIONS.map((m) => m.version));
  expect(await appliedVersions(pool)).toEqual(MIGRATIONS.map((m) => m.version));
  await pool.end();
});

test('result rows carry one index, their primary key (run_id, seq): a push keeps up no other (migration 20)', async () => {
  const pool = await createPool(await server.createDatabase('indexes'));
  await migrate(pool, 'db');
  const { rows } = await pool.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE tablename = 'agentmark_rows' ORDER BY indexname");
  expect(rows.map((row) => row.indexdef)).toEqual(['CREATE UNIQUE INDEX agentmark_rows_pkey ON public.agentmark_rows USING btree (run_id, seq)']);
  await pool.end();
});

test('two processes migrating at once: one applies, the other finds nothing to do', async () => {
  const url = await server.createDatabase('race');
  const [a, b] = [await createPool(url), await createPool(url)];
  const results = await Promise.all([migrate(a, 'db'), migrate(b, 'db')]);
  expect(results.map((r) => r.length).sort()).toEqual([0, MIGRATIONS.length]);
  await Promise.all([a.end(), b.end()]);
});

test('the store setting: the environment wins, "local" and nothing mean the folder, a bad URL is CONFIG_BAD_STORE', () => {
  expect(storeSetting('postgres://a@h/db', { AGENTMARK_STORE_URL: 'postgres://b:pw@h:5433/db' })).toEqual({ url: 'postgres://b:pw@h:5433/db', source: 'env' });
  expect(storeSetting('postgres://a@h/db', {})).toEqual({ url: 'postgres://a@h/db', source: 'agentmark.json' });
  expect(storeSetting('local', {})).toEqual({ source: 'default' });
  expect(storeSetting(undefined, { AGENTMARK_STORE_URL: '  ' })).toEqual({ source: 'default' });
  expect(() => storeSetting('mysql://a@h/db', {})).toThrow(expect.objectContaining({ code: 'CONFIG_BAD_STORE' }));
  expect(() => storeSetting(5, {})).toThrow(expect.objectContaining({ code: 'CONFIG_BAD_STORE' }));
  expect(() => storeSetting('postgres://a:secret@h/db', {})).toThrow(expect.objectContaining({ code: 'CONFIG_STORE_PASSWORD', message: expect.not.stringContaining('secret') }));
});

test('a printed URL has its password masked, and only its password', () => {
  expect(maskUrl("postgres://u:p%40ss%2Fw'rd@db.internal:5432/evals?sslmode=require")).toBe('postgres://u:***@db.internal:5432/evals?sslmode=require');
  expect(maskUrl('postgres://u@db/evals')).toBe('postgres://u@db/evals');
  expect(maskUrl('not a url //u:secret@host')).toBe('not a url //u:***@host');
});
