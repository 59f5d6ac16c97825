import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { RunStore } from '../../src/store/index.js';
import { manifest, onTempDir, row } from './fixtures.js';

// A real collection before each reading, so the figures are what is retained, not garbage.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let root = '';
onTempDir((dir) => {
  root = dir;
});

const ROWS = 200_000;
/** Rows appended in one turn, as a runner at high concurrency does. */
const TURN = 500;

test('the view index is written as the rows are: 200,000 rows leave no more retained heap than a few bytes a row', async () => {
  const handle = await new RunStore(root).create(manifest('20261130-031500-ab12cd'));
  let first = 0;
  let peak = 0;
  for (let i = 0; i < ROWS; i++) {
    const passed = i % 3 !== 0;
    handle.append(row(i, 0, { evals: { exact: { score: passed ? 1 : 0, passed, normalized: passed ? 1 : 0 }, tone: { score: 0.5, normalized: 0.5, label: i % 2 === 0 ? 'warm' : 'cool' } } }));
    if ((i + 1) % TURN !== 0) continue;
    await handle.written();
    if ((i + 1) % (ROWS / 10) !== 0) continue;
    gc();
    const used = process.memoryUsage().heapUsed;
    if (first === 0) first = used;
    peak = Math.max(peak, used);
  }
  await handle.close();
  const perRow = (peak - first) / (ROWS * 0.9);
  // Held until the end instead, the columns retain about 680 bytes a row (measured).
  expect(perRow).toBeLessThan(8);
  const meta = JSON.parse(await readFile(join(handle.dir, 'view-index', 'meta.json'), 'utf8')) as { rows: number; evalNames: string[]; labelled: number[] };
  expect(meta).toMatchObject({ rows: ROWS, evalNames: ['exact', 'tone'], labelled: [1] });
  expect((await readFile(join(handle.dir, 'view-index', 'verdicts'), 'utf8')).length).toBe(2 * ROWS);
}, 120_000);

test('a resumed run has no view index: the earlier attempt\'s rows were never in one, and the viewer reads its results', async () => {
  const store = new RunStore(root);
  const handle = await store.create(manifest('20261130-031500-ab12cd'));
  handle.append(row(0));
  await handle.close();
  expect(await readdir(join(handle.dir, 'view-index'))).toContain('meta.json');
  const opened = await store.open('20261130-031500-ab12cd');
  expect(await readdir(handle.dir)).not.toContain('view-index');
  opened.handle.append(row(1));
  await opened.handle.close();
  expect(await readdir(handle.dir)).not.toContain('view-index');
});
