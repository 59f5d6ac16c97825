import { describe, expect, it } from 'vitest';
import { betaQuantile } from '../../src/scoring/beta-quantile.js';
import { clopperPearsonInterval } from '../../src/scoring/exact-interval.js';
import { passRateStats } from '../../src/scoring/pass-rate.js';
import { summarizeEvals } from '../../src/scoring/index.js';
import type { RowResult } from '../../src/experiment/types.js';

// Every constant: `python3 test/fixtures/statistics/pass-rate-reference.py` (scipy 1.17.1's
// beta.ppf, t.ppf and norm.ppf), the line named in each comment.
function close(actual: readonly number[] | undefined, expected: readonly number[], digits = 12): void {
  expect(actual).toBeDefined();
  expected.forEach((value, i) => expect(actual?.[i]).toBeCloseTo(value, digits));
}

const equalRows = (passed: number[], repeats: number) => ({ verdicts: passed.map(() => repeats), passed });

describe('betaQuantile', () => {
  it('matches scipy beta.ppf, in the tails and the middle', () => {
    // "beta.ppf": beta.ppf(1e-10, 3, 500), beta.ppf(0.5, 0.3, 0.7), beta.ppf(0.975, 2000.5, 3000.5)
    expect(betaQuantile(1e-10, 3, 500) / 1.6838542371108199e-6).toBeCloseTo(1, 12);
    expect(betaQuantile(0.5, 0.3, 0.7)).toBeCloseTo(0.15877468697850153, 13);
    expect(betaQuantile(0.975, 2000.5, 3000.5)).toBeCloseTo(0.4136336832281887, 13);
  });
});

describe('clopperPearsonInterval', () => {
  it('matches scipy at whole and fractional counts', () => {
    close(clopperPearsonInterval(30, 30), [0.8842966917779722, 1]); // "cp 30 30"
    close(clopperPearsonInterval(0, 30), [0, 0.11570330822202778]); // "cp 0 30"
    close(clopperPearsonInterval(8, 10), [0.4439045376923585, 0.9747892736731666]); // "cp 8 10"
    close(clopperPearsonInterval(1, 5), [0.0050507633794680575, 0.7164179361180895]); // "cp 1 5"
    close(clopperPearsonInterval(2.5, 5), [0.09439032734434406, 0.905609672655656]); // "cp 2.5 5"
    close(clopperPearsonInterval(0.47, 8.3), [3.518018452473655e-5, 0.43663516986388357]); // "cp 0.47 8.3"
  });
  it('1 pass in 5 rows holds a 2% rate (Wilson starts at 3.6% there)', () => {
    expect(clopperPearsonInterval(1, 5)?.[0]).toBeLessThan(0.02);
  });
  it('undefined with no results', () => {
    expect(clopperPearsonInterval(0, 0)).toBeUndefined();
  });
});

describe('passRateStats with repeats: the rows are never fewer than the sample', () => {
  it('30 rows × 10 repeats all passing: no narrower than 30 rows, lower bound ≤ Wilson at 30 of 30 (0.886)', () => {
    const stats = passRateStats(equalRows(Array(30).fill(10), 10));
    // "wilson lower 30/30": 30 / (30 + z²) = 0.8864866068260312; "clustered 30x10 all pass":
    // the rows agree, so the sample is the 30 rows: Clopper-Pearson at 30 of 30.
    expect(stats?.effectiveN).toBe(30);
    close(stats?.ci95, [0.8842966917779722, 1]);
    expect(stats?.ci95[0]).toBeLessThanOrEqual(0.8864866068260312);
  });
  it('a stray pass on 1 row of 30 says nothing about how alike repeats are: the rows are the sample', () => {
    const stats = passRateStats(equalRows([1, ...Array(29).fill(0)], 10));
    // "clustered 30x10 one stray pass"
    expect(stats?.effectiveN).toBe(30);
    close(stats?.ci95, [1.9019548880783372e-18, 0.12198130656174881]);
  });
  it('rows that vary: the effective size from their spread, shrunk for the rows it is measured on', () => {
    // 40 rows × 3: 20 rows 3 of 3, 10 rows 2 of 3, 6 rows 1 of 3, 4 rows 0 of 3 ("clustered 40x3 mixed")
    const stats = passRateStats(equalRows([...Array(20).fill(3), ...Array(10).fill(2), ...Array(6).fill(1), ...Array(4).fill(0)], 3));
    expect(stats?.method).toBe('row-clustered');
    expect(stats?.effectiveN).toBeCloseTo(60.82581056038096, 10);
    close(stats?.ci95, [0.5865564541839663, 0.8248090117096453]);
  });
  it('unequal repeats: 2 of 2, 1 of 2, 0 of 1 rests on total / most repeats = 2.5 rows', () => {
    const stats = passRateStats({ verdicts: [2, 2, 1], passed: [2, 1, 0] });
    // "clustered 2/2 1/2 0/1"
    expect(stats?.effectiveN).toBe(2.5);
    close(stats?.ci95, [0.047315689662783184, 0.9899239834517792]);
  });
  it('the run summary shows the same interval (30 × 10 all passing)', () => {
    const rows: RowResult[] = [];
    for (let index = 0; index < 30; index++) {
      for (let repeat = 0; repeat < 10; repeat++) rows.push({ index, line: index + 1, repeat, input: {}, metadata: {}, toolCalls: [], evals: { ok: { passed: true } }, cached: false, retries: 0 });
    }
    close(summarizeEvals(rows, ['ok'])[0]?.passRateCi95, [0.8842966917779722, 1]);
  });
});
