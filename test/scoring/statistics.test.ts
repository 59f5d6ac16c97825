import { describe, expect, it } from 'vitest';
import type { RowResult } from '../../src/experiment/types.js';
import { findFlakyRows, meanStats, sampleStdDev, scoreRange, scoreRanges, spread, summarizeEvals, wilsonInterval, type ScoredEval } from '../../src/scoring/index.js';

function close(actual: readonly number[] | undefined, expected: readonly number[], digits = 4): void {
  expect(actual).toBeDefined();
  expect(actual?.length).toBe(expected.length);
  expected.forEach((value, i) => expect(actual?.[i]).toBeCloseTo(value, digits));
}

// Expected values: `python3 test/fixtures/statistics/reference-values.py` (mpmath, 40 digits).
describe('wilsonInterval', () => {
  it('8 of 10 with z = Φ⁻¹(0.975) = 1.959964 → [0.490162, 0.943318]', () => {
    // By hand with z² = 3.841459: denominator 1 + z²/n = 1.384146; centre (0.8 + 0.192073)/1.384146
    // = 0.716740; half = z·√(0.016 + 0.009604)/1.384146 = 0.226578.
    close(wilsonInterval(8, 10), [0.490162471537, 0.943317848546], 9);
  });
  it('0 of 10 stays inside [0, 1] and is not zero-width', () => {
    close(wilsonInterval(0, 10), [0, 0.277532799863], 9);
    close(wilsonInterval(10, 10), [0.722467200137, 1], 9);
  });
  it('undefined with no results', () => {
    expect(wilsonInterval(0, 0)).toBeUndefined();
  });
});

describe('mean, SE and spread', () => {
  const values = [2, 4, 4, 4, 5, 5, 7, 9];
  it('by hand, with t(0.975, n − 1)', () => {
    // mean 40/8 = 5; squared deviations 9+1+1+1+0+0+4+16 = 32; sample variance 32/7 = 4.571429
    // sd = 2.138090; SE = sd/√8 = 2.138090/2.828427 = 0.755929; t(0.975, 7) = 2.364624;
    // t·SE = 1.787488 (1.96 would give 1.481621: too narrow at n = 8)
    expect(sampleStdDev(values)).toBeCloseTo(2.13809, 5);
    const stats = meanStats(values);
    expect(stats?.mean).toBe(5);
    expect(stats?.stdErr).toBeCloseTo(0.755929, 6);
    close(stats?.ci95, [3.21251208176, 6.78748791824], 9);
    expect(spread(values)).toEqual({ min: 2, median: 4.5, max: 9 });
    expect(spread([3, 1, 2])).toEqual({ min: 1, median: 2, max: 3 });
  });
  it('a bounded score\'s interval is clipped to its range, never past it', () => {
    // 9 passes of 10 as scores 1 and 0, by hand: mean 0.9; squared deviations 9·0.01 + 0.81 = 0.9;
    // sample variance 0.9/9 = 0.1; sd 0.316228; SE = sd/√10 = 0.1; t(0.975, 9)·SE = 0.226216
    // t interval [0.673784, 1.126216]; the score is in [0, 1], so the top is clipped to 1.
    const nine = [1, 1, 1, 1, 1, 1, 1, 1, 1, 0];
    close(meanStats(nine)?.ci95, [0.67378428372, 1.12621571628], 9);
    close(meanStats(nine, [0, 1])?.ci95, [0.67378428372, 1], 9);
    expect(meanStats(nine, [0, 1])?.stdErr).toBeCloseTo(0.1, 9);
    // A 1–5 rating, scores 5 5 5 4, by hand: mean 4.75; squared deviations 3·0.0625 + 0.5625 = 0.75;
    // variance 0.25; sd 0.5; SE 0.25; t(0.975, 3)·SE = 0.795612 → [3.954388, 5.545612], clipped to 5.
    close(meanStats([5, 5, 5, 4], [1, 5])?.ci95, [3.95438842368, 5], 9);
    // 1 and 0 on [0, 1]: mean 0.5, SE 0.5, t(0.975, 1) = 12.706 → far past both bounds → [0, 1].
    close(meanStats([1, 0], [0, 1])?.ci95, [0, 1], 9);
    // Inside the range nothing changes: [2, 4] on [0, 100]: mean 3, SE 1 → 3 ∓ 12.706205.
    close(meanStats([2, 4], [-100, 100])?.ci95, [-9.70620473617, 15.7062047362], 9);
    // A value outside the declared range (a boolean scorer's own score) widens it to take it in:
    // [3, 0] on [0, 1]: the t interval is far wider than both → [0, 3].
    close(meanStats([3, 0], [0, 1])?.ci95, [0, 3], 9);
  });
  it('scoreRange reads the range from the score schema', () => {
    expect(scoreRange({ type: 'boolean' })).toEqual([0, 1]);
    expect(scoreRange({ type: 'numeric', min: 1, max: 5 })).toEqual([1, 5]);
    expect(scoreRange({ type: 'numeric', min: 0 })).toBeUndefined();
    expect(scoreRange({ type: 'categorical', categories: [{ label: 'good', value: 2 }, { label: 'bad', value: -1 }, { label: 'ok', value: 0 }] })).toEqual([-1, 2]);
    expect(scoreRange(undefined)).toBeUndefined();
    expect([...scoreRanges([{ name: 'a', schema: { type: 'boolean' } }, { name: 'b', schema: undefined }])]).toEqual([['a', [0, 1]]]);
  });
  it('summarizeEvals bounds each eval\'s mean interval by its range', () => {
    const rows = Array.from({ length: 10 }, (_, index) => result(index, 0, { b: { passed: index < 9, score: index < 9 ? 1 : 0, normalized: index < 9 ? 1 : 0 } }));
    // Same 9-of-10 figures as above.
    close(summarizeEvals(rows, ['b'])[0]?.meanScoreCi95, [0.67378428372, 1.12621571628], 9);
    close(summarizeEvals(rows, ['b'], new Map([['b', [0, 1] as const]]))[0]?.meanScoreCi95, [0.67378428372, 1], 9);
  });
  it('one value has a mean but no SE; none has nothing', () => {
    expect(meanStats([0.7])).toEqual({ mean: 0.7 });
    expect(meanStats([])).toBeUndefined();
    expect(spread([])).toBeUndefined();
  });
});

function result(index: number, repeat: number, evals: Record<string, ScoredEval>): RowResult {
  return { index, line: index + 1, repeat, input: {}, metadata: {}, toolCalls: [], evals, cached: false, retries: 0 };
}

// Three rows × two repeats. `q` is numeric (scores only); `b` is boolean.
const results: RowResult[] = [
  result(0, 0, { q: { score: 1.0, normalized: 1.0 }, b: { passed: true, score: 1, normalized: 1 } }),
  result(0, 1, { q: { score: 0.8, normalized: 0.8 }, b: { passed: true, score: 1, normalized: 1 } }),
  result(1, 0, { q: { score: 0.4, normalized: 0.4 }, b: { passed: true, score: 1, normalized: 1 } }),
  result(1, 1, { q: { score: 0.6, normalized: 0.6 }, b: { passed: false, score: 0, normalized: 0 } }),
  result(2, 0, { q: { score: 0.2, normalized: 0.2 }, b: { error: 'timed out after 30s' } }),
  result(2, 1, { q: { score: 0.2, normalized: 0.2 }, b: { passed: false, score: 0, normalized: 0 } }),
  result(3, 0, { lat: { skipped: true, reason: 'no live latency (cached)' } }),
];

describe('summarizeEvals', () => {
  const [q, b, lat] = summarizeEvals(results, ['q', 'b', 'lat']);

  it('takes the mean and SE over per-row means when rows repeat', () => {
    // per-row means: (1.0+0.8)/2 = 0.9, (0.4+0.6)/2 = 0.5, (0.2+0.2)/2 = 0.2 → mean 1.6/3 = 0.533333
    // squared deviations: 0.366667² + 0.033333² + 0.333333² = 0.134444 + 0.001111 + 0.111111 = 0.246667
    // sample sd = √(0.246667/2) = 0.351188; SE = 0.351188/√3 = 0.202759; t(0.975, 2)·SE = 0.872400
    // 95% CI = 0.533333 ∓ 0.872400 = [−0.339067, 1.405734] (no range given, so not clipped)
    // (treating the 6 results as independent would give SE 0.133333: too confident)
    expect(q).toMatchObject({ name: 'q', count: 6, errored: 0, skipped: 0, verdictCount: 0, passedCount: 0, scoredRows: 3 });
    expect(q?.passRate).toBeUndefined();
    expect(q?.meanScore).toBeCloseTo(0.533333, 6);
    expect(q?.meanScoreStdErr).toBeCloseTo(0.202759, 6);
    close(q?.meanScoreCi95, [-0.33906716018, 1.40573382685], 9);
    expect(q?.meanNormalized).toBeCloseTo(0.533333, 6);
    // min/median/max over all six scores: sorted 0.2 0.2 0.4 0.6 0.8 1.0 → median (0.4+0.6)/2
    expect([q?.min, q?.median, q?.max]).toEqual([0.2, 0.5, 1.0]);
  });

  it('pass rate over results carrying passed, an errored result a verdict that did not pass; the row is the unit', () => {
    // 3 passed of 6 (row 2's errored repeat did not pass), p = 0.5, in 3 rows: 2 of 2, 1 of 2, 0 of 2.
    // Failures, the rarer verdict at p ≥ 0.5, sit on 2 rows: the spread has 1 degree of freedom,
    // too few to measure, so the rows are the sample: Clopper-Pearson at n = 3 with 1.5 passes.
    // Reference: `python3 test/fixtures/statistics/pass-rate-reference.py` (scipy), "clustered 2/2 1/2 0/2".
    expect(b).toMatchObject({ count: 6, errored: 1, verdictCount: 6, passedCount: 3, passRate: 0.5 });
    close(b?.passRateCi95, [0.038747617785165174, 0.9612523822148348], 9);
    // pass^2: row 0 only (row 2's first repeat errored) → 1 of 3; pass@2: rows 0 and 1 → 2 of 3.
    expect(b).toMatchObject({ repeats: 2, passHatK: 1 / 3, passAtK: 2 / 3 });
    close(b?.passHatKCi95, wilsonInterval(1, 3) as [number, number], 12);
    close(b?.passAtKCi95, [0.207659600802, 0.93850805528], 9);
  });

  it('60 rows × 5 repeats, 48 always pass and 12 always fail: the interval is as wide as 60 rows make it', () => {
    const rows = Array.from({ length: 300 }, (_, i) => result(Math.floor(i / 5), i % 5, { ok: { passed: Math.floor(i / 5) < 48 } }));
    const [ok] = summarizeEvals(rows, ['ok']);
    // Residuals yᵢ − p·mᵢ: +1 on 48 rows, −4 on 12; variance 60/59 · (48 + 192) / 300² = 0.0027119;
    // effective n = 0.8 · 0.2 / 0.0027119 = 59, times (z / t(0.975, 11))² for a spread measured on
    // the 12 failing rows, is below the 60 rows: the rows are the sample, Clopper-Pearson at 48 of 60
    // (scipy: pass-rate-reference.py "clustered 60x5 48/12"). Over the 300 results it would be ~0.09 wide.
    close(ok?.passRateCi95, [0.6766995761987096, 0.892158877475638], 9);
    const [low, high] = ok?.passRateCi95 ?? [0, 0];
    expect(high - low).toBeGreaterThanOrEqual(0.18);
    expect(ok).toMatchObject({ passRate: 0.8, repeats: 5, passHatK: 0.8, passAtK: 0.8 });
  });

  it('without repeats the pass rate interval is Clopper-Pearson over the results', () => {
    const rows = Array.from({ length: 10 }, (_, i) => result(i, 0, { ok: { passed: i < 8 } }));
    const [ok] = summarizeEvals(rows, ['ok']);
    // scipy: beta.ppf(0.025, 8, 3), beta.ppf(0.975, 9, 2) (pass-rate-reference.py "cp 8 10")
    close(ok?.passRateCi95, [0.4439045376923585, 0.9747892736731666], 9);
    expect(ok?.repeats).toBeUndefined();
    expect(ok?.passHatK).toBeUndefined();
  });

  it('skipped results count but carry no statistics', () => {
    expect(lat).toEqual({ name: 'lat', count: 1, errored: 0, skipped: 1, verdictCount: 0, passedCount: 0, scoredRows: 0 });
  });

  it('an eval with no results, and untyped results', () => {
    expect(summarizeEvals([], ['x'])).toEqual([{ name: 'x', count: 0, errored: 0, skipped: 0, verdictCount: 0, passedCount: 0, scoredRows: 0 }]);
    const [u] = summarizeEvals([result(0, 0, { u: { score: 3, untyped: true } })], ['u']);
    expect(u).toMatchObject({ untyped: true, meanScore: 3, min: 3, median: 3, max: 3 });
    expect(u?.meanScoreStdErr).toBeUndefined();
  });

  it('reads any iterable once (a generator)', () => {
    function* rows(): Generator<RowResult> {
      yield* results;
    }
    expect(summarizeEvals(rows(), ['b'])[0]?.passedCount).toBe(3);
  });
});

describe('findFlakyRows', () => {
  it('finds rows whose verdict changed across repeats, with mean and sd', () => {
    // row 1 b: pass then fail → some; scores 1, 0 → mean 0.5, sd √0.5 = 0.707107
    // row 2 b: error then fail → none; only the failed repeat has a score
    // row 0 b passes twice, q has no verdicts, lat is skipped: none of them is flaky
    const flaky = findFlakyRows(results);
    expect(flaky.map((row) => [row.index, row.evals])).toEqual([
      [1, ['b']],
      [2, ['b']],
    ]);
    expect(flaky[0]?.details['b']).toEqual({ repeats: 2, passedCount: 1, passed: 'some', mean: 0.5, sd: Math.SQRT1_2 });
    expect(flaky[1]?.details['b']).toEqual({ repeats: 2, passedCount: 0, passed: 'none', mean: 0 });
  });
  it('no repeats, no flaky rows', () => {
    expect(findFlakyRows(results.filter((r) => r.repeat === 0))).toEqual([]);
  });
});
