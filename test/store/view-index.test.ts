import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { LOCK_FILE, readViewIndex, RunStore } from '../../src/store/index.js';
import { FLUSH_EVERY } from '../../src/store/view-index-writer.js';
import { RunIndex } from '../../src/view/run-index.js';
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

test('a resumed run\'s view index holds the earlier attempt\'s rows and the new ones; a killed run has none', async () => {
  const store = new RunStore(root);
  const handle = await store.create(manifest('20261130-031500-ab12cd'));
  handle.append(row(0));
  handle.append(row(2));
  await handle.written();
  // Killed: the handle is never closed (its lock file is left to the next process), so the index has no meta and is never read.
  expect(await readdir(join(handle.dir, 'view-index'))).not.toContain('meta.json');
  await rm(join(handle.dir, LOCK_FILE));
  const opened = await store.open('20261130-031500-ab12cd');
  opened.handle.append(row(1));
  await opened.handle.close();
  const results = join(handle.dir, 'results.jsonl');
  const integrity = opened.handle.integrity();
  const stored = await readViewIndex(handle.dir, { resultsPath: results, evalNames: ['exact'], ...(integrity ? { integrity } : {}) });
  const scan = new RunIndex(results, ['exact']);
  await scan.refresh();
  expect(stored?.columns.index).toEqual([0, 2, 1]);
  expect(stored?.columns).toEqual(scan.columns);
  expect(stored?.starts).toEqual(scan.starts);
  expect(stored?.lengths).toEqual(scan.lengths);
});

test('rows that errored before any eval ran come first: the index still has the evals, with no verdict for those rows', async () => {
  const handle = await new RunStore(root).create(manifest('20261130-031500-ab12cd'));
  handle.append(row(3, 0, { error: 'model failed', evals: {} }));
  handle.append(row(0));
  handle.append(row(1, 0, { evals: { exact: { score: 0, passed: false, normalized: 0, label: 'off' } } }));
  await handle.close();
  const results = join(handle.dir, 'results.jsonl');
  const integrity = handle.integrity();
  const stored = await readViewIndex(handle.dir, { resultsPath: results, evalNames: ['exact'], ...(integrity ? { integrity } : {}) });
  const scan = new RunIndex(results, ['exact']);
  await scan.refresh();
  expect(stored?.columns).toMatchObject({ verdicts: '-PF', scores: [[null, 1, 0]], labels: [[null, null, 'off']] });
  expect(stored?.columns).toEqual(scan.columns);
});

test('rows held past a flush, evals that begin after one, labels, null scores and non-finite figures: the columns say what the results file says', async () => {
  const handle = await new RunStore(root).create(manifest('20261130-031500-ab12cd'));
  // More errored rows than one flush holds come first (no evals yet), then 2.5 flushes of scored rows.
  const errored = FLUSH_EVERY + 3;
  for (let i = 0; i < errored; i++) handle.append(row(i, 0, { error: 'model failed', evals: {}, latencyMs: Number.NaN, costUsd: Number.POSITIVE_INFINITY }));
  await handle.written();
  const scored = Math.floor(FLUSH_EVERY * 2.5);
  for (let i = errored; i < errored + scored; i++) {
    const passed = i % 3 !== 0;
    handle.append(
      row(i, i % 2, {
        evals: {
          exact: i % 7 === 0 ? { error: 'scorer threw' } : { score: passed ? 1 : 0, passed, normalized: passed ? 1 : 0 },
          tone: i % 5 === 0 ? { skipped: true } : { score: i % 4 === 0 ? Number.NaN : i / 1000, normalized: 0.5, ...(i % 2 === 0 ? { label: `warm "${i}"` } : {}) },
        },
        cached: i % 11 === 0,
        costUsd: i * 1e-7,
        latencyMs: -0,
      }),
    );
    if (i % 500 === 0) await handle.written();
  }
  await handle.close();
  const results = join(handle.dir, 'results.jsonl');
  const integrity = handle.integrity();
  const stored = await readViewIndex(handle.dir, { resultsPath: results, evalNames: ['exact', 'tone'], ...(integrity ? { integrity } : {}) });
  const scan = new RunIndex(results, ['exact', 'tone']);
  await scan.refresh();
  expect(stored?.columns.index.length).toBe(errored + scored);
  expect(stored?.columns).toEqual(scan.columns);
  expect(stored?.starts).toEqual(scan.starts);
  expect(stored?.lengths).toEqual(scan.lengths);
  // The files' text, as the format says (view-index-format.ts): JSON values each ended by a comma.
  const text = async (name: string): Promise<string> => readFile(join(handle.dir, 'view-index', name), 'utf8');
  const first = errored;
  expect((await text('verdicts')).slice(0, 2 * errored)).toBe('-'.repeat(2 * errored));
  // Rows 1027–1030 (FLUSH_EVERY is 1,024): passed, passed, the scorer threw; tone has no verdict, then skipped.
  expect((await text('verdicts')).slice(2 * first, 2 * first + 8)).toBe('P-P-E-PS');
  expect((await text('latency')).slice(0, 10)).toBe('null,null,');
  expect((await text('cost')).split(',').slice(errored, errored + 2)).toEqual([String(first * 1e-7), String((first + 1) * 1e-7)]);
  expect((await text('label-1')).split(',').slice(errored - 1, errored + 2)).toEqual(['null', 'null', JSON.stringify(`warm "${first + 1}"`)]);
  expect((await text('score-1')).split(',').slice(0, 1)).toEqual(['null']);
});
