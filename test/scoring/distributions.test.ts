import { describe, expect, it } from 'vitest';
import { binomialHalfCdf, mcnemarExact, normalCdf, normalQuantile, tQuantile } from '../../src/compare/stats/index.js';
import { Z95 } from '../../src/scoring/statistics.js';

/** Relative closeness: |actual − expected| ≤ tolerance · |expected|. */
function near(actual: number, expected: number, tolerance: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tolerance * Math.abs(expected));
}

// Every expected value below is printed by `python3 test/fixtures/statistics/reference-values.py`
// (mpmath at 40 digits; the t values agree with R's `qt` and the published tables).
describe('Student t quantile', () => {
  const table: Array<[df: number, t975: number, t80: number]> = [
    [1, 12.706204736174705, 1.3763819204711735],
    [2, 4.3026527297494639, 1.0606601717798213],
    [3, 3.1824463052837096, 0.97847231236330444],
    [4, 2.7764451051977944, 0.94096457723518117],
    [5, 2.5705818356363155, 0.91954378024082603],
    [9, 2.2621571627982055, 0.88340385968553454],
    [29, 2.0452296421327043, 0.85419198588185566],
    [59, 2.0009953780882677, 0.84775594938138675],
    [299, 1.9679296690656699, 0.84282502930480581],
  ];
  it.each(table)('df %i', (df, t975, t80) => {
    near(tQuantile(0.975, df), t975, 1e-10);
    near(tQuantile(0.8, df), t80, 1e-10);
    near(tQuantile(0.025, df), -t975, 1e-10);
  });
});

describe('standard normal', () => {
  it('Φ to double precision, and z(0.975) = 1.959964', () => {
    const table: Array<[number, number]> = [
      [-3, 0.0013498980316300945],
      [-1.5, 0.066807201268858066],
      [0.3, 0.61791142218895263],
      [2.5, 0.99379033467422386],
      [6, 0.99999999901341235],
    ];
    for (const [x, p] of table) near(normalCdf(x), p, 1e-12);
    near(Z95, 1.9599639845400542, 1e-15);
    near(normalQuantile(0.975), 1.9599639845400542, 1e-10);
  });
});

describe('exact binomial tail (McNemar)', () => {
  it('small cases', () => {
    expect(binomialHalfCdf(0, 6)).toBeCloseTo(0.015625, 15);
    near(binomialHalfCdf(3, 20), 0.0012884140014648438, 1e-13);
  });
  it('300,000 discordant pairs: exact, no stack overflow', () => {
    // 150,500 regressed and 149,500 improved: two-sided p = 2 · P(X ≤ 149,500), X ~ Bin(300,000, ½).
    near(binomialHalfCdf(149_500, 300_000), 0.034082288269997634, 1e-9);
    const test = mcnemarExact(150_500, 149_500);
    near(test.pValue, 2 * 0.034082288269997634, 1e-9);
    near(test.pWorse, 0.034082288269997634, 1e-9);
  });
  it('150,000 discordant pairs', () => {
    near(mcnemarExact(75_500, 74_500).pValue, 2 * 0.0049483904218881872, 1e-9);
  });
});
