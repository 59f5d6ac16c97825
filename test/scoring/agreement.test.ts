import { describe, expect, it } from 'vitest';
import {
  AgreementCollector,
  confusionOf,
  evalAgreement,
  fleissKappa,
  kappa,
  meanAbsoluteDifference,
  percentAgreement,
  reviewerAgreement,
  rowBootstrapInterval,
  spearman,
} from '../../src/scoring/agreement/index.js';

// Reference values from scikit-learn 1.2.1, statsmodels 0.13.5 and scipy 1.10.1 (Debian's
// python3-sklearn / python3-statsmodels), produced by:
//   python3 -c "from sklearn.metrics import cohen_kappa_score as k; print(k(h, j, weights='quadratic'))"
//   python3 -c "from statsmodels.stats.inter_rater import fleiss_kappa; print(fleiss_kappa(t, method='fleiss'))"
//   python3 -c "from scipy.stats import spearmanr; print(spearmanr(h, j).correlation)"
// with h, j and t as written below.
const HUMAN = [1, 2, 3, 4, 1, 2, 3, 4, 2, 3, 3, 4, 1, 1, 2, 4, 3, 2];
const JUDGE = [1, 2, 4, 4, 2, 2, 3, 3, 2, 3, 1, 4, 1, 2, 2, 4, 4, 1];
const SCALE = ['1', '2', '3', '4'];

function matrixOf(a: readonly number[], b: readonly number[]): number[][] {
  return confusionOf(a.map((value, i) => [String(value), String(b[i])] as const), SCALE).counts;
}

describe("Cohen's kappa", () => {
  it('is 0.4 on the 50 proposals of the textbook example (20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no)', () => {
    expect(kappa([[15, 10], [5, 20]])).toBeCloseTo(0.4, 12);
    expect(percentAgreement([[15, 10], [5, 20]])).toBe(0.7);
  });

  it('matches scikit-learn unweighted, linear and quadratic on a four-point scale', () => {
    const matrix = matrixOf(HUMAN, JUDGE);
    expect(kappa(matrix)).toBeCloseTo(0.4814814814814815, 12);
    expect(kappa(matrix, 'linear')).toBeCloseTo(0.6363636363636364, 12);
    expect(kappa(matrix, 'quadratic')).toBeCloseTo(0.7674418604651163, 12);
  });

  it('is undefined when both raters used one and the same category (0/0), and for no items', () => {
    expect(kappa([[0, 0], [0, 12]])).toBeUndefined();
    expect(kappa([[0, 0], [0, 0]])).toBeUndefined();
  });

  it('is 1 for perfect agreement and negative below chance', () => {
    expect(kappa([[5, 0], [0, 7]])).toBe(1);
    expect(kappa([[0, 6], [6, 0]])).toBe(-1);
  });
});

describe("Fleiss' kappa", () => {
  it("matches statsmodels on Fleiss' 10 subjects × 14 raters × 5 categories", () => {
    const table = [
      [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
    ];
    expect(fleissKappa(table)).toBeCloseTo(0.20993070442195522, 12);
  });

  it('is undefined when items have different numbers of raters', () => {
    expect(fleissKappa([[2, 1], [1, 1]])).toBeUndefined();
  });
});

describe('rank correlation', () => {
  it('matches scipy spearmanr with ties', () => {
    expect(spearman(HUMAN, JUDGE)).toBeCloseTo(0.7628618458276584, 12);
  });

  it('gives the mean absolute difference in score units', () => {
    expect(meanAbsoluteDifference([1, 2, 3], [1, 4, 2])).toBe(1);
  });
});

describe('row bootstrap interval', () => {
  it('is the same for the same items (seeded) and holds the estimate', () => {
    const items = [1, 0, 1, 1, 0, 1, 1, 1, 0, 1];
    const mean = (sample: readonly number[]) => sample.reduce((a, b) => a + b, 0) / sample.length;
    const first = rowBootstrapInterval(items, mean);
    expect(first).toEqual(rowBootstrapInterval(items, mean));
    expect(first![0]).toBeLessThan(0.7);
    expect(first![1]).toBeGreaterThan(0.7);
  });

  it('has no interval when most resamples leave the statistic undefined', () => {
    expect(rowBootstrapInterval([1, 2], () => undefined)).toBeUndefined();
  });
});

describe('evalAgreement', () => {
  it('puts human verdicts in rows and the judge in columns, false before true', () => {
    const agreement = evalAgreement('correct', 'boolean', [
      { human: true, judge: true },
      { human: true, judge: false },
      { human: false, judge: false },
      { human: false, judge: false },
    ]);
    expect(agreement.confusion).toEqual({ categories: ['false', 'true'], counts: [[2, 0], [1, 1]], n: 4 });
    expect(agreement.percentAgreement.value).toBe(0.75);
    expect(agreement.kappa.value).toBeCloseTo(0.5, 12);
    expect(agreement.spearman).toBeUndefined();
  });

  it('weights numeric scores quadratically and adds Spearman and the mean absolute difference', () => {
    const pairs = HUMAN.map((human, i) => ({ human, judge: JUDGE[i] as number }));
    const agreement = evalAgreement('quality', 'numeric', pairs);
    expect(agreement.kappa.value).toBeCloseTo(0.7674418604651163, 12);
    expect(agreement.spearman?.value).toBeCloseTo(0.7628618458276584, 12);
    expect(agreement.meanAbsoluteDifference?.value).toBeCloseTo(8 / 18, 12);
    const [low, high] = agreement.kappa.ci95!;
    expect(low).toBeLessThan(0.7674418604651163);
    expect(high).toBeGreaterThan(0.7674418604651163);
  });

  it('keeps a categorical schema\'s order, categories never used included', () => {
    const agreement = evalAgreement('tone', 'categorical', [{ human: 'formal', judge: 'formal' }], ['casual', 'formal', 'rude']);
    expect(agreement.confusion.categories).toEqual(['casual', 'formal', 'rude']);
    expect(agreement.kappa.value).toBeUndefined();
  });
});

describe('reviewerAgreement', () => {
  it("uses Cohen's kappa for two reviewers on the rows both labelled", () => {
    const rows = [
      new Map([['ann', true], ['bob', true]]),
      new Map([['ann', false], ['bob', false]]),
      new Map([['ann', true], ['bob', false]]),
      new Map([['ann', true]]),
    ];
    const agreement = reviewerAgreement('correct', 'boolean', rows);
    expect(agreement).toMatchObject({ reviewers: ['ann', 'bob'], n: 3, method: 'cohen' });
    expect(agreement?.kappa.value).toBeCloseTo(kappa([[1, 0], [1, 1]])!, 12);
  });

  it("uses Fleiss' kappa for three or more", () => {
    const rows = [
      new Map([['a', 'x'], ['b', 'x'], ['c', 'y']]),
      new Map([['a', 'y'], ['b', 'y'], ['c', 'y']]),
    ];
    expect(reviewerAgreement('tone', 'categorical', rows)).toMatchObject({ method: 'fleiss', n: 2 });
    expect(reviewerAgreement('tone', 'categorical', rows)?.kappa.value).toBeCloseTo(fleissKappa([[2, 1], [0, 3]])!, 12);
  });

  it('is undefined with one reviewer', () => {
    expect(reviewerAgreement('x', 'boolean', [new Map([['a', true]])])).toBeUndefined();
  });
});

describe('AgreementCollector', () => {
  it("leaves a row its reviewers split evenly on out of judge agreement (counted in ties), but keeps it in the reviewers' own", () => {
    const collector = new AgreementCollector({ polite: { type: 'boolean' } });
    const verdicts = (ann: boolean, bob: boolean) => [{ eval: 'polite', value: ann, reviewer: 'ann' }, { eval: 'polite', value: bob, reviewer: 'bob' }];
    // Row 0: ann and bob split (the judge passes it); rows 1–3 they agree.
    collector.add({ index: 0, evals: { polite: { passed: true } } }, verdicts(true, false));
    collector.add({ index: 1, evals: { polite: { passed: true } } }, verdicts(true, true));
    collector.add({ index: 2, evals: { polite: { passed: false } } }, verdicts(false, false));
    collector.add({ index: 3, evals: { polite: { passed: false } } }, verdicts(true, true));
    const result = collector.finish();
    expect(result.ties).toEqual({ polite: 1 });
    // Judge agreement on rows 1–3 only: people true/false/true against the judge true/false/false.
    expect(result.evals.map((e) => [e.eval, e.n, e.confusion.counts])).toEqual([['polite', 3, [[1, 0], [1, 1]]]]);
    // The reviewers' own agreement has all four rows, the split one included.
    expect(result.reviewers).toMatchObject([{ eval: 'polite', reviewers: ['ann', 'bob'], method: 'cohen', n: 4 }]);
  });


  it('gives the same figures and intervals whatever order the rows finished in', () => {
    const rows = Array.from({ length: 12 }, (_, index) => ({
      index,
      repeat: 0,
      evals: { polite: { passed: index % 3 !== 0 } },
      verdicts: [{ eval: 'polite', value: index % 4 !== 0, reviewer: 'ann' }],
    }));
    const collect = (order: typeof rows) => {
      const collector = new AgreementCollector({ polite: { type: 'boolean' } });
      for (const row of order) collector.add(row, row.verdicts);
      return collector.finish();
    };
    const forward = collect(rows);
    expect(forward.evals[0]?.kappa.ci95).toBeDefined();
    expect(collect([...rows].reverse())).toEqual(forward);
    expect(collect([...rows.slice(5), ...rows.slice(0, 5)])).toEqual(forward);
  });
});
