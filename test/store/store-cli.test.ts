import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { MIGRATIONS, knownSchemaVersion } from '../../src/store/postgres/migrations.js';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';

// The serve side's migrations (100 and up) are applied with the run store's.
const APPLIED = `applied schema migrations ${MIGRATIONS.map((m) => m.version).join(', ')}; schema version ${knownSchemaVersion()}`;
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';
import { manifest, row } from './fixtures.js';
import { createHash } from 'node:crypto';

let server: TestPostgres;
let made = 0;
let url: string;
let project: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server.stop());
beforeEach(async () => {
  made += 1;
  url = await server.createDatabase(`cli_${made}`);
  project = await tempProject({ 'agentmark.json': '{ "version": "2.0.0" }\n' });
});
afterEach(() => project.cleanup());

const cli = (args: string[], env: NodeJS.ProcessEnv = { AGENTMARK_STORE_URL: url }) => runCli(args, { cwd: project.dir, env });
const masked = (): string => url.replace(encodeURIComponent(server.password), '***');

function expectNoPassword(text: string): void {
  expect(text).not.toContain(server.password);
  expect(text).not.toContain(encodeURIComponent(server.password));
}

test('store migrate applies every schema migration once, naming the database with its password masked', async () => {
  const first = await cli(['store', 'migrate']);
  expect(first.stdout).toBe(`${masked()}: ${APPLIED}\n`);
  expect(first.code).toBe(0);
  const again = await cli(['store', 'migrate']);
  expect(again.stdout).toBe(`${masked()}: schema version ${knownSchemaVersion()}, up to date\n`);
  expectNoPassword(first.stdout + first.stderr + again.stdout + again.stderr);
});

test('a database with a schema newer than this agentmark is refused, naming both versions', async () => {
  await cli(['store', 'migrate']);
  const storage = await PgStorage.connect(url);
  await storage.pool.query("INSERT INTO agentmark_schema (version, name) VALUES (9999, 'from a newer agentmark')");
  await storage.close();
  for (const args of [['store', 'check'], ['store', 'migrate']]) {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`the store at ${masked()} has schema version 9999, newer than this agentmark knows (schema version ${knownSchemaVersion()})`);
    expectNoPassword(result.stderr);
  }
});

// Migrations are not added in number order (40 came after 100 and 101), so a newer agentmark's
// migration can sit below this one's highest: the message then names it, not two equal versions.
test('a migration this agentmark does not know, numbered below its highest, is named with both schema versions', async () => {
  await cli(['store', 'migrate']);
  const storage = await PgStorage.connect(url);
  await storage.pool.query("INSERT INTO agentmark_schema (version, name) VALUES (79, 'from a newer agentmark')");
  await storage.close();
  const result = await cli(['runs']);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(
    `the store at ${masked()} has schema version ${knownSchemaVersion()} with migration 79 ("from a newer agentmark"), newer than this agentmark knows (schema version ${knownSchemaVersion()}, without migration 79)`,
  );
  expectNoPassword(result.stderr);
});

test('a database lacking a migration below its highest is refused naming it, with the command that migrates it', async () => {
  await cli(['store', 'migrate']);
  const storage = await PgStorage.connect(url);
  await storage.pool.query('DELETE FROM agentmark_schema WHERE version = 40');
  await storage.close();
  const lacking = MIGRATIONS.find((m) => m.version === 40);
  const result = await cli(['store', 'check']);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`the store at ${masked()} has schema version ${knownSchemaVersion()} without migration 40 ("${lacking?.name}"); this agentmark needs schema version ${knownSchemaVersion()}`);
  expect(result.stderr).toContain('agentmark store migrate');
});

test('a database never migrated is refused with the command that migrates it', async () => {
  const result = await cli(['store', 'check']);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`the store at ${masked()} has no agentmark schema; this agentmark needs schema version ${knownSchemaVersion()}`);
  expect(result.stderr).toContain('agentmark store migrate');
});

test('store check verifies every completed run and catches a row edited by hand (exit 1)', async () => {
  await cli(['store', 'migrate']);
  const storage = await PgStorage.connect(url);
  for (const id of ['20261130T031500Z-a', '20261130T041500Z-b']) {
    const lines = [JSON.stringify(row(0)), JSON.stringify(row(1))];
    const sha256 = createHash('sha256').update(lines.map((l) => `${l}\n`).join('')).digest('hex');
    await storage.createRun(manifest(id));
    await storage.appendRows(id, 0, lines);
    await storage.complete(id, { status: 'completed', integrity: { rows: 2, sha256 } });
  }
  await storage.createRun(manifest('20261130T051500Z-still-running'));
  const intact = await cli(['store', 'check']);
  expect(intact.stdout).toBe(`${masked()}: 2 completed runs checked, all intact\n`);
  expect(intact.code).toBe(0);
  await storage.pool.query(`UPDATE agentmark_rows SET line = replace(line, '"answer 1"', '"answer 2"') WHERE run_id = $1 AND seq = 1`, ['20261130T031500Z-a']);
  await storage.close();
  const damaged = await cli(['store', 'check']);
  expect(damaged.code).toBe(1);
  expect(damaged.stdout).toMatch(/^damaged 20261130T031500Z-a: run 20261130T031500Z-a: its results do not match its manifest: 2 rows as recorded, but their content changed \(sha256 [0-9a-f]{12}, recorded [0-9a-f]{12}\) \[STORE_RESULTS_MISMATCH\]\n/);
  expect(damaged.stdout).toContain(`${masked()}: 2 completed runs checked, 1 damaged\n`);
});

test('AGENTMARK_STORE_URL wins over agentmark.json, and is read from the project .env', async () => {
  await writeFile(join(project.dir, 'agentmark.json'), '{ "version": "2.0.0", "store": "postgres://someone@127.0.0.1:1/elsewhere" }\n');
  await writeFile(join(project.dir, '.env'), `AGENTMARK_STORE_URL=${url}\n`);
  const result = await cli(['store', 'migrate'], {});
  expect(result.stdout).toBe(`${masked()}: ${APPLIED}\n`);
});

test('a password in agentmark.json is refused (CONFIG_STORE_PASSWORD), shown masked', async () => {
  await writeFile(join(project.dir, 'agentmark.json'), `{ "version": "2.0.0", "store": "${url}" }\n`);
  const result = await cli(['store', 'migrate'], {});
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`"store" in ${join(project.dir, 'agentmark.json')} holds a password (${masked()}): agentmark.json is committed`);
  expectNoPassword(result.stderr);
});

test('a database that is down: exit 2 naming host and port, never the password', async () => {
  const down = `postgres://agentmark:${encodeURIComponent(server.password)}@127.0.0.1:1/x`;
  const result = await cli(['store', 'check'], { AGENTMARK_STORE_URL: down });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("cannot reach the store's database at 127.0.0.1:1 (ECONNREFUSED)");
  expectNoPassword(result.stderr);
});

test('store migrate without a team store says how to set one (exit 2)', async () => {
  const result = await cli(['store', 'migrate'], {});
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('store migrate needs a team store, and this project keeps its runs in .agentmark/');
});
