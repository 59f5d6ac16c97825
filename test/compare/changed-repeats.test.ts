import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/compare/index.js';
import { formatCompareMarkdown, formatCompareTable } from '../../src/report/compare/index.js';
import { onTempDir } from '../store/fixtures.js';
import { fail, makeRun, pass } from './make-run.js';

let root: string;
onTempDir((dir) => {
  root = dir;
});

/**
 * A row with 3 repeats whose first repeat fails on both sides, yet regressed: base passed 2 of 3,
 * head 0 of 3. Showing the first repeat only said "FAIL → FAIL" under "regressed".
 */
describe("compare's changed rows with repeats say how many repeats passed on each side", () => {
  it('2/3 passed → 0/3 passed, in the result, the table and the markdown', async () => {
    const base = await makeRun(root, { id: '20261130-100000.001-abcdef', evalNames: ['ok'], rows: [{ input: { i: 0 }, output: 'b', evals: { ok: [fail('no'), pass(), pass()] } }] });
    const head = await makeRun(root, { id: '20261130-100000.002-abcdef', evalNames: ['ok'], rows: [{ input: { i: 0 }, output: 'h', evals: { ok: [fail('no'), fail('no'), fail('no')] } }] });
    const result = await compareRuns(base, head, { projectRoot: root });
    const [changed] = result.changedRows.rows;
    expect(changed?.change).toBe('regressed');
    expect(changed?.evals.ok).toMatchObject({ base: { passed: false, repeats: { passed: 2, of: 3 } }, head: { passed: false, repeats: { passed: 0, of: 3 } }, change: 'regressed' });
    expect(formatCompareTable(result)).toContain('\n    ok: 2/3 passed → 0/3 passed\n');
    expect(formatCompareMarkdown(result)).toContain('\n- ok: 2/3 passed → 0/3 passed (');
  });

  it('one repeat a row: PASS → FAIL as before', async () => {
    const base = await makeRun(root, { id: '20261130-100000.003-abcdef', evalNames: ['ok'], rows: [{ input: { i: 0 }, output: 'b', evals: { ok: pass() } }] });
    const head = await makeRun(root, { id: '20261130-100000.004-abcdef', evalNames: ['ok'], rows: [{ input: { i: 0 }, output: 'h', evals: { ok: fail() } }] });
    const result = await compareRuns(base, head, { projectRoot: root });
    expect(result.changedRows.rows[0]?.evals.ok?.base).toEqual({ passed: true, score: 1 });
    expect(formatCompareTable(result)).toContain('\n    ok: PASS → FAIL\n');
  });
});
