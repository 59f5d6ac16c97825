import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { AnnotationLine } from '../../src/review/types.js';
import { runCli } from '../helpers/run-cli.js';
import { usePostgresStore } from '../helpers/store-test.js';
import { tempProject } from '../helpers/temp-project.js';
import { makeLocalRun } from './store-runs.js';

// `runs push` of a run already completed in the store checks the stored rows against the local
// run's lines in the database (range digests, as at a completion) before saying "already in".
const db = usePostgresStore('repair');
let project: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  project = await tempProject({ 'agentmark.json': '{ "version": "2.0.0" }\n' });
});
afterEach(() => project.cleanup());

const ID = '20261202T070000Z-repair';
/** 25,000 rows: three ranges of the range check (10,000 places each), the edit in the second. */
const ROWS = 25_000;
const cli = (args: string[]) => runCli(args, { cwd: project.dir, env: { AGENTMARK_STORE_URL: db.url }, timeoutMs: 120_000 });
const LABEL: AnnotationLine = { row: 'r0', index: 0, repeat: 0, outputHash: 'h', eval: 'exact', value: true, reviewer: 'vera', at: '2026-12-02T07:10:00.000Z' };

/** Per place, the transaction that last wrote the row (xmin): unchanged when nothing was rewritten. */
async function rowVersions(): Promise<string> {
  const { rows } = await db.storage.pool.query<{ v: string }>("SELECT md5(string_agg(seq::text || ':' || xmin::text, ',' ORDER BY seq)) AS v FROM agentmark_rows WHERE run_id = $1", [ID]);
  return rows[0]?.v as string;
}

async function counts(): Promise<{ rows: number; viewIndex: number; labels: number; changeSeq: string }> {
  const { rows } = await db.storage.pool.query<{ rows: number; view: number; labels: number; change: string }>(
    `SELECT (SELECT count(*)::int FROM agentmark_rows WHERE run_id = $1) AS rows, (SELECT count(*)::int FROM agentmark_view_index WHERE run_id = $1) AS view,
            (SELECT count(*)::int FROM agentmark_annotations WHERE run_id = $1) AS labels, (SELECT change_seq::text FROM agentmark_runs WHERE id = $1) AS change`,
    [ID],
  );
  const found = rows[0] as { rows: number; view: number; labels: number; change: string };
  return { rows: found.rows, viewIndex: found.view, labels: found.labels, changeSeq: found.change };
}

async function pushedWithALabel(): Promise<void> {
  await makeLocalRun(project.dir, ID, ROWS);
  expect((await cli(['runs', 'push', ID])).code).toBe(0);
  // A reviewer's label written in the store (serve): a repair must keep it.
  await db.storage.appendAnnotations(ID, [LABEL]);
}

test('an undamaged completed copy: "already in", and no row rewritten', async () => {
  await pushedWithALabel();
  const before = { versions: await rowVersions(), ...(await counts()) };
  const again = await cli(['runs', 'push', ID]);
  expect([again.code, again.stdout, again.stderr]).toEqual([0, `${ID}: already in ${db.storage.location} (25000 rows)\n`, '']);
  expect({ versions: await rowVersions(), ...(await counts()) }).toEqual(before);
}, 120_000);

test('a row of a completed copy edited in the table: push repairs it in place (labels and view index kept), then store check passes', async () => {
  await pushedWithALabel();
  const intact = await counts();
  expect([intact.rows, intact.viewIndex, intact.labels]).toEqual([ROWS, 1, 1]);
  await db.storage.pool.query(`UPDATE agentmark_rows SET line = replace(line, '"answer 12345"', '"answer edited"') WHERE run_id = $1 AND seq = 12345`, [ID]);
  const damaged = await cli(['store', 'check']);
  expect([damaged.code, damaged.stdout.split('\n')[0]?.startsWith(`damaged ${ID}: `)]).toEqual([1, true]);

  const repaired = await cli(['runs', 'push', ID]);
  expect([repaired.code, repaired.stdout, repaired.stderr]).toEqual([0, `repaired ${ID} in ${db.storage.location}: its stored rows did not match its integrity record; 25000 rows sent again\n`, '']);
  expect((await cli(['store', 'check'])).stdout).toBe(`${db.storage.location}: 1 completed run checked, all intact\n`);
  const after = await counts();
  // The edit's trigger dropped the view index; the repair put it back. The label stays; the change number moved on (serve looks again).
  expect([after.rows, after.viewIndex, after.labels, BigInt(after.changeSeq) > BigInt(intact.changeSeq)]).toEqual([ROWS, 1, 1, true]);
  const stored = await db.storage.pool.query<{ line: string }>('SELECT line FROM agentmark_rows WHERE run_id = $1 AND seq = 12345', [ID]);
  expect(JSON.parse(stored.rows[0]?.line as string).output).toBe('answer 12345');
  // Pushed once more: intact now.
  expect((await cli(['runs', 'push', ID])).stdout).toBe(`${ID}: already in ${db.storage.location} (25000 rows)\n`);
}, 120_000);

test('rows deleted from and added to a completed copy are caught too (count and places, not only the content)', async () => {
  await pushedWithALabel();
  const line = (await db.storage.pool.query<{ line: string }>('SELECT line FROM agentmark_rows WHERE run_id = $1 AND seq = 0', [ID])).rows[0]?.line as string;
  await db.storage.pool.query('DELETE FROM agentmark_rows WHERE run_id = $1 AND seq = 24999', [ID]);
  await db.storage.pool.query('INSERT INTO agentmark_rows (run_id, seq, idx, rep, line) VALUES ($1, 30000, 0, 0, $2)', [ID, line]);
  const repaired = await cli(['runs', 'push', ID]);
  expect(repaired.stdout).toBe(`repaired ${ID} in ${db.storage.location}: its stored rows did not match its integrity record; 25000 rows sent again\n`);
  expect((await counts()).rows).toBe(ROWS);
  await db.storage.checkRun(ID);
}, 120_000);

test('a damaged local run over an intact completed copy is refused with its own integrity error, and the copy is left as it is', async () => {
  await pushedWithALabel();
  const before = await rowVersions();
  const path = join(project.dir, '.agentmark', 'runs', ID, 'results.jsonl');
  await writeFile(path, (await readFile(path, 'utf8')).replace('"answer 7"', '"answer seven"'));
  const result = await cli(['runs', 'push', ID]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`run ${ID}: its results do not match its manifest: 25000 rows as recorded, but their content changed`);
  expect(await rowVersions()).toBe(before);
  await db.storage.checkRun(ID);
}, 120_000);
