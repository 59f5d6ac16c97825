import { describe, expect, it } from 'vitest';
import { kappaInterval } from '../../src/scoring/agreement/kappa-interval.js';

/**
 * Reference values: an independent numpy implementation of the same method (Fleiss, Cohen and
 * Everitt 1969's large-sample variance, eq. 13, on the table plus 4 pseudo-counts spread over
 * the cells, 2 for nominal kappa over three or more categories; centre the adjusted kappa;
 * half-width scipy.stats.t.ppf(0.975, n − 1) · √var; the observed kappa kept inside; clipped to
 * [−1, 1]), run with numpy 2.4 and scipy 1.17. Also computed there, the plain variance of each
 * table: [[2, 0], [1, 1]] gives 0.140625 = 9/64, which the formula gives by hand too.
 */
describe('kappaInterval against the numpy reference', () => {
  const cases: Array<[string, number[][], 'none' | 'quadratic', number, number]> = [
    ['perfect agreement on 5 rows', [[2, 0], [0, 3]], 'none', -0.2278847813896886, 1],
    ['κ 0.5 on 4 rows', [[2, 0], [1, 1]], 'none', -0.804841889013211, 1],
    ['40 rows', [[20, 5], [3, 12]], 'none', 0.26945472105027496, 0.7923789676490853],
    ['nominal, 3 categories', [[4, 1, 0], [0, 3, 1], [1, 0, 5]], 'none', 0.27150572124239036, 0.9557670060303367],
    ['quadratic, 3 scores', [[3, 1, 0], [1, 4, 1], [0, 1, 2]], 'quadratic', 0.0735024426079055, 0.9550689859635236],
  ];
  for (const [name, counts, weights, low, high] of cases) {
    it(name, () => {
      const ci = kappaInterval(counts, weights);
      expect(ci?.[0]).toBeCloseTo(low, 9);
      expect(ci?.[1]).toBeCloseTo(high, 9);
    });
  }

  it('leaves out categories neither rater used: the same interval with an empty third category', () => {
    expect(kappaInterval([[20, 5, 0], [3, 12, 0], [0, 0, 0]])).toEqual(kappaInterval([[20, 5], [3, 12]]));
  });

  it('has no interval under two rows or with one category', () => {
    expect(kappaInterval([[1, 0], [0, 0]])).toBeUndefined();
    expect(kappaInterval([[3]])).toBeUndefined();
  });
});
