import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compareRuns, type CompareResult, type EvalComparison, type PassRateDifference, type ScoreDifference } from '../../src/compare/index.js';
import { onTempDir } from '../store/fixtures.js';
import { fail, makeRun, pass, score, type RowSpec } from './make-run.js';

let root: string;
onTempDir((dir) => {
  root = dir;
});

let counter = 0;
const nextId = (): string => `20261130-100000.${String(++counter).padStart(3, '0')}-abcdef`;

async function compare(base: RowSpec[], head: RowSpec[], evalNames: string[], options = {}, extra: { baseOrder?: number[]; headOrder?: number[] } = {}): Promise<CompareResult> {
  const a = await makeRun(root, { id: nextId(), rows: base, evalNames, ...(extra.baseOrder ? { order: extra.baseOrder } : {}) });
  const b = await makeRun(root, { id: nextId(), rows: head, evalNames, ...(extra.headOrder ? { order: extra.headOrder } : {}) });
  return compareRuns(a, b, { projectRoot: root, ...options });
}

/** A table of paired verdicts as rows: `both` passing in both, `baseOnly`, `headOnly`, `neither`. */
function tableRows(both: number, baseOnly: number, headOnly: number, neither: number): { base: RowSpec[]; head: RowSpec[] } {
  const kinds = [...Array<[boolean, boolean]>(both).fill([true, true]), ...Array<[boolean, boolean]>(baseOnly).fill([true, false]), ...Array<[boolean, boolean]>(headOnly).fill([false, true]), ...Array<[boolean, boolean]>(neither).fill([false, false])];
  return {
    base: kinds.map(([b], i) => ({ input: { i }, output: `base ${i}`, evals: { ok: b ? pass() : fail('wrong') } })),
    head: kinds.map(([, h], i) => ({ input: { i }, output: `head ${i}`, evals: { ok: h ? pass() : fail('wrong') } })),
  };
}

describe('pairing', () => {
  test('rows pair by content, not position; duplicates pair in order; rows in one run only are counted and listed', async () => {
    const base: RowSpec[] = [
      { input: { q: 'a' }, evals: { ok: pass() } },
      { input: { q: 'dup' }, output: 'first', evals: { ok: pass() } },
      { input: { q: 'dup' }, output: 'second', evals: { ok: fail() } },
      { input: { q: 'gone' }, evals: { ok: pass() } },
      { input: { q: 'b' }, expected: 'x', evals: { ok: pass() } },
    ];
    const head: RowSpec[] = [
      { input: { q: 'new' }, evals: { ok: pass() } },
      { input: { q: 'b' }, expected: 'x', evals: { ok: fail() } },
      { input: { q: 'dup' }, output: 'first', evals: { ok: pass() } },
      { input: { q: 'a' }, evals: { ok: pass() } },
      { input: { q: 'dup' }, output: 'second', evals: { ok: pass() } },
      // Same input, different expected output: a different row.
      { input: { q: 'b' }, expected: 'y', evals: { ok: pass() } },
    ];
    const result = await compare(base, head, ['ok'], {}, { baseOrder: [4, 2, 0, 3, 1], headOrder: [5, 3, 1, 0, 4, 2] });
    expect(result.pairing).toEqual({
      paired: 4,
      onlyInBase: 1,
      onlyInHead: 2,
      onlyInBaseRows: [{ index: 3, input: { q: 'gone' } }],
      onlyInHeadRows: [{ index: 0, input: { q: 'new' } }, { index: 5, input: { q: 'b' } }],
    });
    const ok = result.evals[0];
    expect([ok?.improved, ok?.regressed, ok?.unchanged]).toEqual([1, 1, 2]);
    expect(result.changedRows.rows.map((r) => [r.change, r.baseIndex, r.headIndex])).toEqual([
      ['regressed', 4, 1],
      ['improved', 2, 4],
    ]);
    expect(result.base.rows).toBe(5);
    expect(result.head.rows).toBe(6);
  });

  test('repeats are reduced to each row\'s pass share and mean score, never cut at a half', async () => {
    const base: RowSpec[] = [
      { input: { i: 0 }, evals: { ok: [pass(), fail(), pass()], s: [score(0.2), score(0.4), score(0.6)] } },
      { input: { i: 1 }, evals: { ok: [fail(), fail(), pass()], s: [score(1), score(1), score(1)] } },
    ];
    const head: RowSpec[] = [
      { input: { i: 0 }, evals: { ok: [fail(), fail(), pass()], s: [score(0.4), score(0.4), score(0.4)] } },
      { input: { i: 1 }, evals: { ok: [fail(), fail(), pass()], s: [score(0.7), score(0.7), score(1)] } },
    ];
    const result = await compare(base, head, ['ok', 's']);
    expect(result.base.repeat).toBe(3);
    const [ok, s] = result.evals;
    // Shares: base 2/3 and 1/3, head 1/3 and 1/3 (a 1-of-3 row is not a 0, a 2-of-3 row not a 1).
    expect(ok?.base.passRate).toBe(0.5);
    expect(ok?.head.passRate).toBeCloseTo(1 / 3, 12);
    expect(ok?.regressed).toBe(1);
    expect(ok?.unchanged).toBe(1);
    expect(ok?.passRate).toMatchObject({ test: 'wilcoxon', method: 'exact' });
    expect(ok?.passRate?.estimate).toBeCloseTo(-1 / 6, 12);
    // One non-zero difference: the exact signed-rank p is 2 · ½ = 1, the one-sided ½.
    expect(ok?.passRate?.pValue).toBe(1);
    expect(ok?.passRate?.pWorse).toBe(0.5);
    expect(s?.kind).toBe('score');
    expect(s?.base.meanScore).toBeCloseTo(0.7, 12);
    expect(s?.head.meanScore).toBeCloseTo(0.6, 12);
    expect(s?.score?.estimate).toBeCloseTo(-0.1, 12);
  });
});

describe('repeats: the row is the unit', () => {
  test('60 rows × 5 repeats (48 always pass, 12 always fail): each side shows the run summary\'s own interval; a 2-of-4 row is no pass', async () => {
    const rows = (failing: number): RowSpec[] => Array.from({ length: 60 }, (_, i) => ({ input: { i }, evals: { ok: Array.from({ length: 5 }, () => (i < failing ? fail() : pass())) } }));
    const result = await compare(rows(12), rows(12), ['ok']);
    const ok = result.evals[0];
    // The same computation as summarizeEvals (test/scoring/statistics.test.ts; scipy,
    // test/fixtures/statistics/pass-rate-reference.py "clustered 60x5 48/12"): [0.676700, 0.892159].
    expect(ok?.base.passRateCi95?.[0]).toBeCloseTo(0.6766995761987096, 9);
    expect(ok?.base.passRateCi95?.[1]).toBeCloseTo(0.892158877475638, 9);
    expect(ok?.head.passRateCi95).toEqual(ok?.base.passRateCi95);
    expect(ok?.passRate).toMatchObject({ test: 'wilcoxon', estimate: 0, pValue: 1 });
    // Nothing moved: the floor of 5 rows of 60 (8.3 points) is above the default 5: inconclusive.
    expect(ok?.minDetectable).toBeCloseTo(5 / 60, 12);
    expect(result.gate.outcome).toBe('inconclusive');
    // A row at 2 of 4 in base and 3 of 4 in head improved; under the old half-cut both were passes.
    const two = await compare(
      [{ input: { i: 0 }, evals: { ok: [pass(), pass(), fail(), fail()] } }],
      [{ input: { i: 0 }, evals: { ok: [pass(), pass(), pass(), fail()] } }],
      ['ok'],
    );
    expect([two.evals[0]?.improved, two.evals[0]?.passRate?.estimate]).toEqual([1, 0.25]);
  });
});

describe('statistics on paired rows', () => {
  test('Newcombe (1998) example (a) as runs: 36 / 2 / 12 / 0 → +20 points [5.69, 34.04], McNemar exact p = 2·P(X ≤ 2 | 14, ½)', async () => {
    const { base, head } = tableRows(36, 2, 12, 0);
    const result = await compare(base, head, ['ok']);
    const ok = result.evals[0];
    expect(ok?.kind).toBe('verdict');
    expect(ok?.pairs).toBe(50);
    expect(ok?.passRate?.estimate).toBeCloseTo(0.2, 12);
    expect(ok?.passRate?.ci95[0]).toBeCloseTo(0.056927, 5);
    expect(ok?.passRate?.ci95[1]).toBeCloseTo(0.34043, 5);
    expect(ok?.passRate?.pValue).toBeCloseTo((2 * (1 + 14 + 91)) / 16384, 12);
    expect(ok?.passRate?.pValueHolm).toBe(ok?.passRate?.pValue);
    expect(ok?.base.passRate).toBe(38 / 50);
    expect(ok?.head.passRate).toBe(48 / 50);
    const boot = ok?.passRate?.bootstrapCi95 as [number, number];
    expect(boot[0]).toBeGreaterThan(0.05);
    expect(boot[1]).toBeLessThan(0.36);
    expect(result.changedRows).toMatchObject({ regressed: 2, improved: 12, omitted: 0 });
    expect(result.changedRows.rows).toHaveLength(14);
    expect(result.changedRows.rows[0]).toMatchObject({ change: 'regressed', baseOutput: 'base 36', headOutput: 'head 36', evals: { ok: { base: { passed: true }, head: { passed: false, reason: 'wrong' }, change: 'regressed' } } });
  });

  test('scores: paired t interval and Wilcoxon p of the sleep data (Student 1908, as R prints them), scaled to [0, 1]', async () => {
    const d = [1.2, 2.4, 1.3, 1.3, 0.0, 1.0, 1.8, 0.8, 4.6, 1.4];
    const base = d.map((_, i) => ({ input: { i }, evals: { s: score(0.1) } }));
    const head = d.map((x, i) => ({ input: { i }, evals: { s: score(0.1 + x / 10) } }));
    const result = await compare(base, head, ['s']);
    const s = result.evals[0];
    expect(s?.score?.estimate).toBeCloseTo(0.158, 10);
    expect(s?.score?.ci95?.[0]).toBeCloseTo(0.07001142, 6);
    expect(s?.score?.ci95?.[1]).toBeCloseTo(0.24598858, 6);
    expect(s?.score?.pValue).toBeCloseTo(0.009091, 5);
    expect(s?.score?.method).toBe('normal');
    expect([s?.improved, s?.regressed, s?.unchanged]).toEqual([9, 0, 1]);
  });

  test('Holm across evals, labelled; the gate reads one-sided Holm p-values; --max-drop', async () => {
    const { base, head } = tableRows(10, 12, 0, 8);
    const withSecond = (rows: RowSpec[]) => rows.map((r) => ({ ...r, evals: { ...r.evals, other: pass() } }));
    const result = await compare(withSecond(base), withSecond(head), ['ok', 'other'], { failOnRegression: true });
    const [ok, other] = result.evals;
    // Two tests: the smaller p doubles, the larger (1) stays 1.
    expect(ok?.passRate?.pValueHolm).toBeCloseTo(Math.min(1, 2 * ((2 * 1) / 4096)), 12);
    expect(ok?.passRate?.pWorseHolm).toBeCloseTo(2 / 4096, 12);
    expect(other?.passRate?.pValueHolm).toBe(1);
    expect(result.gate.checked).toBe(true);
    expect(result.gate.failed).toBe(true);
    expect(result.gate.reasons).toEqual(['ok: pass rate significantly worse (-40.0 points, one-sided p = 0.00049 after Holm < α = 0.05)']);
    const calm = await compare(withSecond(base), withSecond(base), ['ok', 'other'], { maxDrop: 5 });
    // 30 pairs, none discordant, two evals: one-sided α/2 = 0.025 needs 6 flips (6 of 30 = 20
    // points), and the exact test has 80% power only at 25.07 points (scipy:
    // test/fixtures/statistics/mcnemar-power-reference.py, power(30, 0, δ, 0.025) = 0.8).
    expect(calm.evals[0]?.minDetectable).toBeCloseTo(0.25074758322700536, 6);
    expect(calm.evals[0]?.detectableAlpha).toBe(0.025);
    expect(calm.gate).toMatchObject({ checked: true, outcome: 'inconclusive', failed: false, reasons: [] });
    // An eval in head only has nothing to compare: it does not decide the outcome.
    // (200 rows: with none discordant the exact test has 80% power from a 3.5-point drop; at 120
    // rows it needs 5.5 points, above the default 5.)
    const rows = Array.from({ length: 200 }, (_, i) => ({ input: { i }, evals: { ok: pass() } }));
    const withOk = await makeRun(root, { id: nextId(), rows, evalNames: ['ok'] });
    const withExtra = await makeRun(root, { id: nextId(), rows: rows.map((r) => ({ ...r, evals: { ...r.evals, extra: pass() } })), evalNames: ['ok', 'extra'] });
    const added = await compareRuns(withOk, withExtra, { projectRoot: root });
    expect(added.gate.outcome).toBe('no regression');
    expect(added.evals.map((e) => [e.name, e.pairs, e.gate?.outcome])).toEqual([['ok', 200, 'no regression'], ['extra', 0, 'inconclusive']]);
    // 157 pairs: the exact test's power at a 5-point drop is 0.8017 there, 0.7968 at 156 (scipy).
    expect(calm.gate.inconclusive[0]).toBe('ok: no significant drop, but smallest detectable drop 25.1 points > max drop 5; about 127 more paired rows needed to detect a 5-point drop (157 in all)');
    // --max-drop is a one-sided test of the drop against the margin: 2 flips of 20 (a 10-point
    // observed drop) are noise as far as 20 pairs can tell, and do not fail it.
    const small = tableRows(10, 2, 0, 8);
    const noise = await compare(small.base, small.head, ['ok'], { maxDrop: 5 });
    expect(noise.gate.failed).toBe(false);
    expect(noise.evals[0]?.dropLowerBound).toBeLessThan(0.05);
    // 40 flips of 100: the drop is past 5 points with 95% one-sided confidence.
    const big = tableRows(50, 40, 0, 10);
    const drop = await compare(big.base, big.head, ['ok'], { maxDrop: 5 });
    expect(drop.gate.failed).toBe(true);
    // (both of the eval's reasons, in one: significantly worse; and past the margin)
    expect(drop.gate.reasons[0]).toMatch(/; ok: pass rate dropped 40\.0 points, at least \d+\.\d points with one-sided confidence 0\.95 \(more than --max-drop 5\)$/);
    expect(drop.evals[0]?.dropLowerBound).toBeGreaterThan(0.05);
  });

  test('the gate fires on the one-sided p: 5 of 30 rows worse, none better, is regressed (one-sided p = 1/32 < 0.05; the two-sided 1/16 is not)', async () => {
    // McNemar exact with 5 discordant pairs, all one way: P(X ≥ 5 | 5, ½) = 1/32, doubled 1/16.
    // One eval, so Holm leaves both as they are. A gate reading the two-sided p would not fire.
    const { base, head } = tableRows(20, 5, 0, 5);
    const result = await compare(base, head, ['ok'], { failOnRegression: true });
    const ok = result.evals[0];
    expect(ok?.passRate?.pValueHolm).toBe(1 / 16);
    expect(ok?.passRate?.pWorseHolm).toBe(1 / 32);
    expect(ok?.gate?.outcome).toBe('regressed');
    expect(result.gate).toMatchObject({ checked: true, outcome: 'regressed', failed: true });
    expect(result.gate.reasons).toEqual(['ok: pass rate significantly worse (-16.7 points, one-sided p = 0.031 after Holm < α = 0.05)']);
    // The same five rows better in head: a one-sided test of "head worse" has p = 1, nothing fires.
    const better = await compare(head, base, ['ok'], { failOnRegression: true });
    expect(better.evals[0]?.passRate?.pWorseHolm).toBe(1);
    expect(better.gate.failed).toBe(false);
  });

  test("AgentMark's regression_tolerance: a row × eval score below base × (1 − tolerance)", async () => {
    const base = [0.5, 1, 0.8].map((v, i) => ({ input: { i }, evals: { s: score(v) } }));
    const head = [0.46, 0.85, 0.8].map((v, i) => ({ input: { i }, evals: { s: score(v) } }));
    const result = await compare(base, head, ['s'], { tolerance: 0.1 });
    expect(result.tolerance).toEqual({ tolerance: 0.1, compared: 3, failures: [{ baseIndex: 1, headIndex: 1, eval: 's', base: 1, head: 0.85 }], omitted: 0, failed: true });
  });

  test('the result is plain JSON', async () => {
    const { base, head } = tableRows(3, 1, 2, 1);
    const result = await compare(base, head, ['ok']);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });
});

const verdict = fc.constantFrom('pass', 'fail', 'error', 'missing');
const rowArb = fc.record({ v: verdict, s: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }) });
type RowDraw = { v: string; s: number | undefined };
// Two rows every generated run starts with: both evals then always have at least two pairs,
// so each difference, interval and bootstrap below exists and every assertion runs.
const FIXED: RowDraw[] = [{ v: 'pass', s: 4 }, { v: 'fail', s: 0 }];
function toSpec(rows: RowDraw[]): RowSpec[] {
  return [...FIXED, ...rows].map(({ v, s }, i) => ({
    input: { i: i % 7 },
    evals: {
      ...(v === 'pass' ? { ok: pass() } : v === 'fail' ? { ok: fail() } : v === 'error' ? { ok: { error: 'boom' } } : {}),
      ...(s === undefined ? {} : { s: score(s / 4) }),
    },
  }));
}

/** The verdict eval's two differences and the score eval's one, each required to be there. */
function differencesOf(result: CompareResult): { ok: EvalComparison; s: EvalComparison; passRate: PassRateDifference; scores: ScoreDifference[] } {
  const ok = result.evals.find((e) => e.name === 'ok');
  const s = result.evals.find((e) => e.name === 's');
  expect([ok?.kind, s?.kind]).toEqual(['verdict', 'score']);
  expect(s?.passRate).toBeUndefined();
  for (const diff of [ok?.passRate, ok?.score, s?.score]) expect(diff).toBeDefined();
  return { ok: ok as EvalComparison, s: s as EvalComparison, passRate: ok?.passRate as PassRateDifference, scores: [ok?.score as ScoreDifference, s?.score as ScoreDifference] };
}

describe('properties', () => {
  test('a run compared with itself: zero difference, p = 1, no changed rows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { maxLength: 30 }), async (rows) => {
        const spec = toSpec(rows);
        const id = await makeRun(root, { id: nextId(), rows: spec, evalNames: ['ok', 's'] });
        const result = await compareRuns(id, id, { projectRoot: root, resamples: 10_000 });
        expect(result.pairing.paired).toBe(spec.length);
        for (const e of result.evals) expect(e.improved + e.regressed).toBe(0);
        const { passRate, scores } = differencesOf(result);
        for (const diff of [passRate, ...scores]) {
          expect(diff.estimate).toBe(0);
          expect(diff.pValue).toBe(1);
          expect(diff.bootstrapCi95).toEqual([0, 0]);
        }
        expect(passRate.ci95[0]).toBeCloseTo(-passRate.ci95[1], 12);
        expect(result.changedRows).toEqual({ regressed: 0, improved: 0, rows: [], omitted: 0 });
        expect(result.gate.failed).toBe(false);
      }),
      { numRuns: 25 },
    );
  });

  test('swapping base and head negates every difference and swaps improved and regressed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(rowArb, rowArb), { maxLength: 30 }), async (pairs) => {
        const a = await makeRun(root, { id: nextId(), rows: toSpec(pairs.map(([x]) => x)), evalNames: ['ok', 's'] });
        const b = await makeRun(root, { id: nextId(), rows: toSpec(pairs.map(([, y]) => y)), evalNames: ['ok', 's'] });
        const forward = await compareRuns(a, b, { projectRoot: root });
        const backward = await compareRuns(b, a, { projectRoot: root });
        expect(backward.pairing.paired).toBe(forward.pairing.paired);
        forward.evals.forEach((f, i) => {
          const r = backward.evals[i];
          expect(r?.improved).toBe(f.regressed);
          expect(r?.regressed).toBe(f.improved);
          expect(r?.unchanged).toBe(f.unchanged);
        });
        const there = differencesOf(forward);
        const back = differencesOf(backward);
        const mirrored: Array<[PassRateDifference | ScoreDifference, PassRateDifference | ScoreDifference]> = [[there.passRate, back.passRate], ...there.scores.map((x, i) => [x, back.scores[i] as ScoreDifference] as [ScoreDifference, ScoreDifference])];
        for (const [x, y] of mirrored) {
          expect(y.estimate).toBeCloseTo(-x.estimate, 12);
          expect(x.ci95).toBeDefined();
          const [low, high] = x.ci95 as [number, number];
          expect(y.ci95?.[0]).toBeCloseTo(-high, 12);
          expect(y.ci95?.[1]).toBeCloseTo(-low, 12);
          expect(y.pValue).toBeCloseTo(x.pValue, 12);
          // The bootstrap redraws; its mirror agrees within Monte Carlo error.
          const [bx, by] = [x.bootstrapCi95, y.bootstrapCi95] as [[number, number], [number, number]];
          expect(Math.abs(by[0] + bx[1])).toBeLessThan(0.15);
          expect(Math.abs(by[1] + bx[0])).toBeLessThan(0.15);
        }
        expect(backward.changedRows.regressed + backward.changedRows.improved).toBe(forward.changedRows.regressed + forward.changedRows.improved);
      }),
      { numRuns: 25 },
    );
  });
});
