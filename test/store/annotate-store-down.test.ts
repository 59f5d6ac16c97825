import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { AnnotationLine } from '../../src/review/index.js';
import { runCli } from '../helpers/run-cli.js';
import { useEmptyClones, usePostgresStore } from '../helpers/store-test.js';
import { makeLocalRun } from './store-runs.js';

const db = usePostgresStore('annotate');
const clone = useEmptyClones();
/** Port 1 on loopback: nothing listens there, so the connection is refused at once. */
const DOWN = 'postgres://agentmark:s3cret@127.0.0.1:1/evals';
const cli = (args: string[], cwd: string, storeUrl = db.url) => runCli(args, { cwd, env: { AGENTMARK_STORE_URL: storeUrl }, timeoutMs: 60_000 });
const ID = '20261130T031500Z-a';
const localLabels = async (dir: string): Promise<AnnotationLine[]> =>
  (await readFile(join(dir, '.agentmark', 'runs', ID, 'annotations.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as AnnotationLine);

test('the store down: a run this clone has is labelled here with one warning naming the store, and the next runs push takes the label there', async () => {
  const here = await clone();
  await makeLocalRun(here, ID, 2);
  expect((await cli(['runs', 'push', ID], here)).code).toBe(0);

  const labelled = await cli(['annotate', ID, '1', 'exact', '--fail', '--reviewer', 'ana', '--note', 'wrong'], here, DOWN);
  expect(labelled.code).toBe(0);
  expect(labelled.stderr).toBe(
    "warning: the team store is not available (cannot reach the store's database at 127.0.0.1:1 (ECONNREFUSED)): the label is written in this clone only; `agentmark runs push 20261130T031500Z-a` takes it to the store\n" +
      `Labelled 1 eval result in run ${ID} (.agentmark/runs/${ID}/annotations.jsonl)\n`,
  );
  const [mine] = await localLabels(here);
  expect(mine).toMatchObject({ index: 1, repeat: 0, eval: 'exact', value: false, note: 'wrong', reviewer: 'ana' });
  expect(await db.storage.readAnnotations(ID)).toEqual([]);

  // Meanwhile another reviewer labelled the run in the store (through serve, or another clone).
  const theirs: AnnotationLine = { ...(mine as AnnotationLine), index: 0, value: true, reviewer: 'bo', at: '2026-11-30T04:00:00.000Z' };
  delete theirs.note;
  await db.storage.appendAnnotations(ID, [theirs]);

  const pushed = await cli(['runs', 'push', ID], here);
  expect(pushed.stdout).toBe(`${ID}: already in ${db.storage.location} (2 rows); 1 label sent\n`);
  expect(await db.storage.readAnnotations(ID)).toEqual([theirs, mine]);
  const again = await cli(['runs', 'push', ID], here);
  expect(again.stdout).toBe(`${ID}: already in ${db.storage.location} (2 rows)\n`);
  expect(await db.storage.readAnnotations(ID)).toEqual([theirs, mine]);
}, 120_000);

test('the store down: a run not yet pushed is labelled here, and its first push takes run and label', async () => {
  const here = await clone();
  await makeLocalRun(here, ID, 2);
  expect((await cli(['annotate', 'latest', '0', 'exact', '--pass', '--reviewer', 'ana'], here, DOWN)).code).toBe(0);
  const pushed = await cli(['runs', 'push'], here);
  expect(pushed.stdout).toBe(`pushed ${ID}: 2 rows to ${db.storage.location}\n`);
  expect(await db.storage.readAnnotations(ID)).toEqual(await localLabels(here));
}, 120_000);

test('the store down: a run only the store holds cannot be labelled: exit 2 naming its host and port, never the password', async () => {
  const other = await clone();
  await makeLocalRun(other, ID, 2);
  expect((await cli(['runs', 'push', ID], other)).code).toBe(0);
  const here = await clone();
  const result = await cli(['annotate', ID, '1', 'exact', '--pass', '--reviewer', 'ana'], here, DOWN);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`run "${ID}" is not in this clone, and the team store cannot be reached to look for it: cannot reach the store's database at 127.0.0.1:1 (ECONNREFUSED)`);
  expect(result.stderr).not.toContain('s3cret');
  expect(result.stderr).not.toContain('    at ');
  expect(await db.storage.readAnnotations(ID)).toEqual([]);
}, 120_000);

test('labels written in the store after a clone brought the run over reach that clone: on its next reference to the run and on runs pull', async () => {
  const first = await clone();
  await makeLocalRun(first, ID, 2);
  expect((await cli(['runs', 'push', ID], first)).code).toBe(0);
  const second = await clone();
  expect((await cli(['runs', 'pull', ID], second)).stdout).toBe(`pulled ${ID}: 2 rows into ${join(second, '.agentmark', 'runs')}\n`);

  expect((await cli(['annotate', ID, '0', 'exact', '--pass', '--reviewer', 'ana'], first)).code).toBe(0);
  expect(await db.storage.readAnnotations(ID)).toHaveLength(1);
  // The second clone labels the run too: resolving it brings ana's label over first.
  expect((await cli(['annotate', ID, '1', 'exact', '--pass', '--reviewer', 'carl'], second)).code).toBe(0);
  expect((await localLabels(second)).map((line) => line.reviewer)).toEqual(['ana', 'carl']);
  expect(await localLabels(second)).toEqual(await db.storage.readAnnotations(ID));

  expect((await cli(['annotate', ID, '1', 'exact', '--fail', '--reviewer', 'bo'], first)).code).toBe(0);
  expect((await cli(['runs', 'pull', ID], second)).stdout).toBe(`${ID}: already in ${join(second, '.agentmark', 'runs')} (2 rows); 1 label brought\n`);
  expect(await localLabels(second)).toEqual(await db.storage.readAnnotations(ID));
  expect((await localLabels(second)).map((line) => line.reviewer)).toEqual(['ana', 'carl', 'bo']);
}, 120_000);
