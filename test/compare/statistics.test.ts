import { describe, expect, test } from 'vitest';
import {
  binomialHalfCdf,
  bootstrapMeanInterval,
  holmAdjust,
  mcnemarExact,
  minDetectableMean,
  minDetectablePassRate,
  minimumDiscordant,
  newcombePairedInterval,
  normalCdf,
  normalQuantile,
  pairedT,
  sampleBinomial,
  pairsNeeded,
  type Detectable,
  tQuantile,
  wilcoxonSignedRank,
} from '../../src/compare/stats/index.js';
import { EvalPairs } from '../../src/compare/eval-pairs.js';
import { evalStatistics } from '../../src/compare/eval-statistics.js';
import { mulberry32 } from '../../src/dataset/random.js';

// Student (1908) / Cushny & Peebles sleep data: extra hours of sleep, drug 2 minus drug 1, per
// patient. Reference results as printed by R's own documented example
// `t.test(extra ~ group, data = sleep, paired = TRUE)` and `wilcox.test(..., paired = TRUE)`.
const sleepDifferences = [1.2, 2.4, 1.3, 1.3, 0.0, 1.0, 1.8, 0.8, 4.6, 1.4];

describe('distributions', () => {
  test('normal quantiles match printed tables (z 0.975 = 1.959964, z 0.8 = 0.841621)', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.8)).toBeCloseTo(0.841621, 5);
    expect(normalCdf(-1.959964)).toBeCloseTo(0.025, 6);
  });

  test('t quantiles match a textbook t table (df 1: 12.706, df 9: 2.262, df 29: 2.045)', () => {
    expect(tQuantile(0.975, 1)).toBeCloseTo(12.7062, 3);
    expect(tQuantile(0.975, 9)).toBeCloseTo(2.262157, 5);
    expect(tQuantile(0.975, 29)).toBeCloseTo(2.04523, 4);
    expect(tQuantile(0.025, 9)).toBeCloseTo(-2.262157, 5);
  });
});

describe('Newcombe method 10 (paired pass rates)', () => {
  test('Newcombe (1998) Table II example (a): 36 both, 12 first only, 2 second only, 0 neither → 0.0569 to 0.3404', () => {
    // The limits as published for method 10; re-derived by hand from the paper's formula:
    // Wilson 48/50 = [0.865397, 0.988961], 38/50 = [0.625871, 0.857027], φ = −24/√(48·2·38·12).
    const interval = newcombePairedInterval({ both: 36, headOnly: 12, baseOnly: 2, neither: 0 });
    expect(interval?.[0]).toBeCloseTo(0.056927, 5);
    expect(interval?.[1]).toBeCloseTo(0.34043, 5);
  });

  test('swapping the two runs mirrors the interval; no pairs gives none; no change is not zero-width', () => {
    const [lo, hi] = newcombePairedInterval({ both: 36, headOnly: 2, baseOnly: 12, neither: 0 }) ?? [];
    expect(lo).toBeCloseTo(-0.34043, 5);
    expect(hi).toBeCloseTo(-0.056927, 5);
    expect(newcombePairedInterval({ both: 0, headOnly: 0, baseOnly: 0, neither: 0 })).toBeUndefined();
    const same = newcombePairedInterval({ both: 10, headOnly: 0, baseOnly: 0, neither: 10 }) ?? [0, 0];
    expect(same[0]).toBeLessThan(0);
    expect(same[1]).toBeGreaterThan(0);
    expect(same[0]).toBeCloseTo(-same[1], 12);
    // φ = (100 − 10)/100: half-width = 0.200707·√(2 − 2·0.9), by hand: Wilson half-width of 10/20 = 1.96·√(0.0125 + 0.002401)/1.19208.
    expect(same[1]).toBeCloseTo(0.200707 * Math.sqrt(0.2), 5);
  });
});

describe('McNemar exact test', () => {
  test('hand-computed binomial tails: 2 vs 8 → 2·(1 + 10 + 45)/1024; 0 vs 6 → 2/64', () => {
    expect(mcnemarExact(2, 8).pValue).toBeCloseTo(112 / 1024, 12);
    expect(mcnemarExact(8, 2).pValue).toBeCloseTo(112 / 1024, 12);
    expect(mcnemarExact(0, 6).pValue).toBeCloseTo(2 / 64, 12);
    // One-sided, head worse: P(X ≥ 8) for Binomial(10, ½) = (1 + 10 + 45)/1024.
    expect(mcnemarExact(8, 2).pWorse).toBeCloseTo(56 / 1024, 12);
    // P(X ≥ 2) = 1 − (1 + 10)/1024.
    expect(mcnemarExact(2, 8).pWorse).toBeCloseTo(1 - 11 / 1024, 12);
    expect(mcnemarExact(0, 0)).toEqual({ pValue: 1, pWorse: 1 });
    expect(mcnemarExact(5, 5).pValue).toBe(1);
  });

  test('Agresti (Categorical Data Analysis, approval ratings: 150 vs 86 discordant) is far below 0.001', () => {
    // Agresti reports z = −4.17 for McNemar's normal form; the exact test agrees in order.
    const { pValue } = mcnemarExact(150, 86);
    expect(pValue).toBeLessThan(1e-4);
    expect(pValue).toBeGreaterThan(1e-6);
  });

  test('large counts do not underflow: Binomial(200000, ½) at its mean is ~½', () => {
    expect(binomialHalfCdf(100_000, 200_000)).toBeCloseTo(0.5 + 0.5 * Math.exp(-0.5 * Math.log(Math.PI * 100_000)), 6);
    expect(binomialHalfCdf(3, 3)).toBe(1);
    expect(binomialHalfCdf(0, 3)).toBeCloseTo(1 / 8, 12);
  });
});

describe('Wilcoxon signed-rank', () => {
  test('sleep data: V = 45, p = 0.009091 (normal approximation: a zero and a tie)', () => {
    const result = wilcoxonSignedRank(sleepDifferences);
    expect(result.n).toBe(9);
    expect(result.statistic).toBe(45);
    expect(result.method).toBe('normal');
    expect(result.pValue).toBeCloseTo(0.009091, 5);
  });

  test('exact for small untied samples: n = 10, T = 8 has one-sided P = 25/1024 (0.0244 in printed tables)', () => {
    // Positive ranks {1, 3, 4} sum to 8; the other seven are negative.
    const differences = [1, -2, 3, 4, -5, -6, -7, -8, -9, -10];
    const result = wilcoxonSignedRank(differences);
    expect(result.method).toBe('exact');
    expect(result.statistic).toBe(8);
    expect(result.pWorse).toBeCloseTo(25 / 1024, 12);
    expect(result.pValue).toBeCloseTo(50 / 1024, 12);
  });

  test('tied ranks: the statistic is the sum of the positive differences\' mid-ranks, on 3,000 random differences with many ties', () => {
    let state = 11;
    const next = (): number => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296;
    const differences = Array.from({ length: 3000 }, () => (Math.floor(next() * 9) - 4) / 4);
    // Mid-ranks by definition: the rank of |d| is 1 + how many are smaller + (ties − 1) / 2.
    const sizes = differences.filter((d) => d !== 0).map(Math.abs);
    let expected = 0;
    for (const d of differences) {
      if (d <= 0) continue;
      const smaller = sizes.filter((s) => s < d).length;
      const ties = sizes.filter((s) => s === d).length;
      expected += smaller + (ties + 1) / 2;
    }
    const result = wilcoxonSignedRank(differences);
    expect(result.n).toBe(sizes.length);
    expect(result.statistic).toBe(expected);
  });

  test('no differences: p = 1', () => {
    expect(wilcoxonSignedRank([0, 0, 0]).pValue).toBe(1);
    expect(wilcoxonSignedRank([]).pValue).toBe(1);
  });

  // docs/statistics.md: "exact below 50 non-zero differences without ties, else normal".
  test('cut-over: 49 untied non-zero differences are exact, 50 use the normal approximation', () => {
    // Ranks 2..n positive, rank 1 negative: T = n(n+1)/2 − 1. Exactly two sign patterns reach
    // T or more (all positive, and all but rank 1), so the two-sided exact p is 2 · 2 / 2^n.
    const differences = (n: number): number[] => Array.from({ length: n }, (_, i) => (i === 0 ? -1 : i + 1));
    const exact = wilcoxonSignedRank(differences(49));
    expect(exact.method).toBe('exact');
    expect(exact.statistic).toBe(1224);
    expect(exact.pValue).toBe(4 / 2 ** 49);
    const normal = wilcoxonSignedRank(differences(50));
    expect(normal.method).toBe('normal');
    // z = (T − n(n+1)/4 − ½) / √(n(n+1)(2n+1)/24) = (1274 − 637.5 − 0.5) / √10731.25 = 6.13956
    expect(normal.pValue).toBeCloseTo(2 * normalCdf(-636 / Math.sqrt(10731.25)), 15);
  });

  // docs/statistics.md: "zeros are dropped (Wilcoxon's rule, not Pratt's); differences within
  // 1e-12 of each other are ties and share their mean rank; a tie means the normal approximation".
  test('tie rule: zeros dropped, differences within 1e-12 tied at their mean rank, ties go normal', () => {
    const zeros = wilcoxonSignedRank([0, 0, 1, 2, -3]);
    expect(zeros.n).toBe(3);
    expect(zeros.statistic).toBe(3);
    expect(zeros.method).toBe('exact');
    // 1e-14 apart: one value twice, ranks 1 and 2 averaged to 1.5 each; the tie forces normal.
    const tied = wilcoxonSignedRank([0.1, 0.1 + 1e-14, -0.3, 0.4, 0.5]);
    expect(tied.statistic).toBe(1.5 + 1.5 + 4 + 5);
    expect(tied.method).toBe('normal');
    // 1e-9 apart: two values, ranked 1 and 2, exact.
    const apart = wilcoxonSignedRank([0.1, 0.1 + 1e-9, -0.3, 0.4, 0.5]);
    expect(apart.statistic).toBe(1 + 2 + 4 + 5);
    expect(apart.method).toBe('exact');
  });
});

describe('paired t', () => {
  test('sleep data: mean 1.58, 95% CI 0.7001142 to 2.4598858, p = 0.002833', () => {
    const result = pairedT(sleepDifferences);
    expect(result?.mean).toBeCloseTo(1.58, 12);
    expect(result?.ci95?.[0]).toBeCloseTo(0.7001142, 6);
    expect(result?.ci95?.[1]).toBeCloseTo(2.4598858, 6);
    expect(result?.pValue).toBeCloseTo(0.002833, 5);
  });

  test('one pair has a mean but no interval; constant differences give a zero-width interval', () => {
    expect(pairedT([0.5])).toEqual({ n: 1, mean: 0.5, sd: 0 });
    expect(pairedT([0.25, 0.25, 0.25])?.ci95).toEqual([0.25, 0.25]);
    expect(pairedT([])).toBeUndefined();
  });
});

describe('Holm', () => {
  test('hand-computed: [0.01, 0.04, 0.03] → [0.03, 0.06, 0.06]', () => {
    const adjusted = holmAdjust([0.01, 0.04, 0.03]);
    expect(adjusted[0]).toBeCloseTo(0.03, 12);
    expect(adjusted[1]).toBeCloseTo(0.06, 12);
    expect(adjusted[2]).toBeCloseTo(0.06, 12);
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]);
    expect(holmAdjust([])).toEqual([]);
  });
});

describe('minimum detectable difference (one-sided α, the gate\'s test)', () => {
  const value = (d: Detectable | undefined): number => (d && 'value' in d ? d.value : NaN);

  test("past 20,000 pairs: Connor's (1987) McNemar sample-size equation solved for the difference, one-sided", () => {
    // (Below that the exact test's power decides: test/compare/detectable-drop.test.ts.)
    const n = 30_000;
    const delta = value(minDetectablePassRate(n, 6000, 0.05));
    const psi = 6000 / n;
    // z(0.95) = 1.644854, z(0.8) = 0.841621 (mpmath; the textbook values)
    const rhs = (1.644854 * Math.sqrt(psi) + 0.841621 * Math.sqrt(psi - delta * delta)) / delta;
    expect(rhs * rhs).toBeCloseTo(n, 0);
  });

  test('never below the fewest flips the exact one-sided test can detect: ½^k ≤ α (5 at 0.05, 6 at 0.025)', () => {
    expect(minimumDiscordant(0.05)).toBe(5);
    expect(minimumDiscordant(0.025)).toBe(6);
    expect(minimumDiscordant(0.1)).toBe(4);
    // No discordant pair among 120: the drop brings its own; at 5 of 120 (the floor) the exact
    // test's power is 0.563, and 0.8 at 5.54 points (scipy: mcnemar-power-reference.py "mcnemar 120 0").
    expect(value(minDetectablePassRate(120, 0, 0.05))).toBeCloseTo(0.055373929366544734, 6);
    expect(minDetectablePassRate(0, 0)).toBeUndefined();
  });

  test('fewer pairs than that: not detectable whatever the data (the label is the α in use)', () => {
    expect(minDetectablePassRate(4, 4, 0.05)).toEqual({ undetectable: true });
    expect(minDetectablePassRate(5, 5, 0.05)).not.toEqual({ undetectable: true });
    expect(minDetectableMean(4, 0.3, 0.05)).toEqual({ undetectable: true });
    // At α = 0.1, four pairs can reach it: ½⁴ = 0.0625 ≤ 0.1.
    expect(minDetectableMean(4, 0.3, 0.1)).not.toEqual({ undetectable: true });
  });

  test('means: (t(1 − α, n − 1) + t(0.8, n − 1)) · sd / √n', () => {
    // t(0.95, 99) = 1.660391, t(0.8, 99) = 0.845267 (mpmath, as in reference-values.py)
    expect(value(minDetectableMean(100, 0.5, 0.05))).toBeCloseTo((1.660391 + 0.845267) * 0.05, 5);
    // Differences that do not vary: the floor of the sign pattern, 5 rows of 100.
    expect(value(minDetectableMean(100, 0, 0.05))).toBeCloseTo(0.05, 12);
  });

  test('pairs needed: the fewest n at which the same formula reaches the target', () => {
    const needed = pairsNeeded((n) => minDetectablePassRate(n, n * 0.2, 0.05), 0.05, 12) as number;
    expect(value(minDetectablePassRate(needed, needed * 0.2, 0.05))).toBeLessThanOrEqual(0.05);
    expect(value(minDetectablePassRate(needed - 1, (needed - 1) * 0.2, 0.05))).toBeGreaterThan(0.05);
  });
});

describe('bootstrap', () => {
  test('binomial draws have the right mean and variance (n = 1000, p = 0.3 and n = 30, p = 0.1)', () => {
    for (const [n, p] of [[1000, 0.3], [30, 0.1], [50, 0.9]] as const) {
      const random = mulberry32(7);
      let sum = 0;
      let squares = 0;
      const draws = 20_000;
      for (let i = 0; i < draws; i++) {
        const x = sampleBinomial(n, p, random);
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(n);
        sum += x;
        squares += x * x;
      }
      const mean = sum / draws;
      const variance = squares / draws - mean * mean;
      expect(Math.abs(mean - n * p)).toBeLessThan(4 * Math.sqrt((n * p * (1 - p)) / draws));
      expect(variance / (n * p * (1 - p))).toBeGreaterThan(0.95);
      expect(variance / (n * p * (1 - p))).toBeLessThan(1.05);
    }
  });

  test('the interval of a large sample is close to mean ± 1.96 SE; seeded, so repeatable', () => {
    const random = mulberry32(3);
    const values = Array.from({ length: 2000 }, () => (random() < 0.2 ? -1 : random() < 0.25 ? 1 : 0));
    const t = pairedT(values);
    const interval = bootstrapMeanInterval(values, { seed: 1 }) as [number, number];
    const se = (t?.sd ?? 0) / Math.sqrt(values.length);
    expect(Math.abs(interval[0] - ((t?.mean ?? 0) - 1.96 * se))).toBeLessThan(0.2 * se);
    expect(Math.abs(interval[1] - ((t?.mean ?? 0) + 1.96 * se))).toBeLessThan(0.2 * se);
    expect(bootstrapMeanInterval(values, { seed: 1 })).toEqual(interval);
    expect(bootstrapMeanInterval(values, { seed: 2 })).not.toEqual(interval);
  });

  test('many distinct values (rows drawn one by one) agree with the normal interval too', () => {
    const random = mulberry32(5);
    const values = Array.from({ length: 1000 }, () => random() - 0.4);
    const t = pairedT(values);
    const se = (t?.sd ?? 0) / Math.sqrt(values.length);
    const interval = bootstrapMeanInterval(values, { seed: 9, resamples: 4000 }) as [number, number];
    expect(Math.abs(interval[0] - ((t?.mean ?? 0) - 1.96 * se))).toBeLessThan(0.2 * se);
    expect(Math.abs(interval[1] - ((t?.mean ?? 0) + 1.96 * se))).toBeLessThan(0.2 * se);
  });

  test('no change: a zero-width interval at 0; one pair: none', () => {
    expect(bootstrapMeanInterval([0, 0, 0, 0])).toEqual([0, 0]);
    expect(bootstrapMeanInterval([1])).toBeUndefined();
  });
});

describe('a 300,000-row comparison with 150,000 discordant pairs', () => {
  test("the eval's statistics carry McNemar's exact p-value (no stack overflow, no approximation)", () => {
    // 75,500 rows regressed, 74,500 improved, 150,000 unchanged (half passed in both).
    const pairs = new EvalPairs('ok');
    const verdict = (passed: boolean) => ({ hasVerdict: true, verdicts: 1, passed: passed ? 1 : 0, verdict: passed ? 1 : 0 });
    for (let i = 0; i < 300_000; i++) {
      const [base, head] = i < 75_500 ? [true, false] : i < 150_000 ? [false, true] : [i % 2 === 0, i % 2 === 0];
      pairs.add(verdict(base), verdict(head));
    }
    const { comparison, pWorse } = evalStatistics(pairs, { resamples: 10_000, seed: 0 });
    expect(comparison).toMatchObject({ pairs: 300_000, regressed: 75_500, improved: 74_500, unchanged: 150_000 });
    expect(comparison.passRate?.test).toBe('mcnemar');
    // 2 · P(X ≤ 74,500), X ~ Binomial(150,000, ½) = 2 · 0.0049483904218881872 (reference-values.py, exact integers).
    const p = comparison.passRate?.pValue as number;
    expect(Math.abs(p - 2 * 0.0049483904218881872)).toBeLessThan(1e-9 * p);
    expect(Math.abs((pWorse as number) - 0.0049483904218881872)).toBeLessThan(1e-9 * 0.0049483904218881872);
  });
});
