import { describe, expect, it } from 'vitest';
import type { RowResult } from '../../src/experiment/types.js';
import { agreementOfRun, appendAnnotations, labelLine, runLabels } from '../../src/review/index.js';
import { openRunFolder, RunStore } from '../../src/store/index.js';
import { fail, makeRun, pass, type RowSpec } from '../compare/make-run.js';
import { onTempDir } from '../store/fixtures.js';

let root: string;
onTempDir((dir) => {
  root = dir;
});

const scores = { polite: { type: 'boolean' as const } };
// The judge passes row 0 and fails row 1, in every run: the outputs are the same, so labels carry.
const rows: RowSpec[] = [
  { input: { word: 'please sit' }, output: 'please sit', evals: { polite: pass() } },
  { input: { word: 'sit' }, output: 'sit', evals: { polite: fail() } },
];

async function run(id: string, startedAt: string): Promise<{ rows: RowResult[]; dir: string }> {
  await makeRun(root, { id, rows, evalNames: ['polite'], startedAt });
  const dir = new RunStore(root).runDir(id);
  const stored = await openRunFolder(dir);
  const read: RowResult[] = [];
  for await (const row of stored.rowsInOrder()) read.push(row);
  return { rows: read, dir };
}

async function label(dir: string, row: RowResult, reviewer: string, value: boolean, at: string): Promise<void> {
  await appendAnnotations(dir, [labelLine({ row, eval: 'polite', value, reviewer, at }, scores)]);
}

describe('runLabels', () => {
  it("a reviewer's own label in this run beats their carried one; another reviewer's carried label stays; the newest earlier run wins", async () => {
    const oldest = await run('20261130-080000.000-aaaaaa', '2026-11-30T08:00:00.000Z');
    const earlier = await run('20261130-090000.000-bbbbbb', '2026-11-30T09:00:00.000Z');
    const latest = await run('20261130-100000.000-cccccc', '2026-11-30T10:00:00.000Z');
    const [row0, row1] = latest.rows as [RowResult, RowResult];
    // Row 0: ann failed it in the earlier run and passes it now; bob passed it in the earlier run.
    await label(earlier.dir, earlier.rows[0] as RowResult, 'ann', false, '2026-11-30T09:30:00.000Z');
    await label(earlier.dir, earlier.rows[0] as RowResult, 'bob', true, '2026-11-30T09:31:00.000Z');
    await label(latest.dir, row0, 'ann', true, '2026-11-30T10:30:00.000Z');
    // Row 1: ann passed it in the oldest run and failed it in the earlier one.
    await label(oldest.dir, oldest.rows[1] as RowResult, 'ann', true, '2026-11-30T08:30:00.000Z');
    await label(earlier.dir, earlier.rows[1] as RowResult, 'ann', false, '2026-11-30T09:32:00.000Z');

    const store = new RunStore(root);
    const labels = await runLabels(await openRunFolder(latest.dir), store);
    expect(labels.own).toBe(1);
    expect(labels.labelsFor(row0)).toEqual([
      { eval: 'polite', value: true, reviewer: 'ann', at: '2026-11-30T10:30:00.000Z' },
      { eval: 'polite', value: true, reviewer: 'bob', at: '2026-11-30T09:31:00.000Z', carriedFrom: '20261130-090000.000-bbbbbb' },
    ]);
    expect(labels.labelsFor(row1)).toEqual([
      { eval: 'polite', value: false, reviewer: 'ann', at: '2026-11-30T09:32:00.000Z', carriedFrom: '20261130-090000.000-bbbbbb' },
    ]);

    // Agreement reads the same labels: row 0 is ann and bob passing (the judge passes it), row 1
    // ann failing (so does the judge). Had ann's carried fail on row 0 counted, row 0 would be a
    // 1–1 split and left out as a tie.
    const agreement = await agreementOfRun(await openRunFolder(latest.dir), scores, store);
    expect(agreement).toMatchObject({ labelledRows: 2, ownLabels: 1, carried: 2, ties: {} });
    expect(agreement.evals.map((e) => [e.eval, e.n, e.confusion.counts])).toEqual([['polite', 2, [[1, 0], [0, 1]]]]);
  });

  it('without the store (no earlier runs to read), only the run\'s own labels', async () => {
    const earlier = await run('20261130-090000.000-bbbbbb', '2026-11-30T09:00:00.000Z');
    const latest = await run('20261130-100000.000-cccccc', '2026-11-30T10:00:00.000Z');
    await label(earlier.dir, earlier.rows[0] as RowResult, 'bob', true, '2026-11-30T09:31:00.000Z');
    const labels = await runLabels(await openRunFolder(latest.dir));
    expect(labels.labelsFor(latest.rows[0] as RowResult)).toEqual([]);
  });
});
