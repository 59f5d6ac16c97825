import { describe, expect, it } from 'vitest';
import { repeatRates } from '../../src/scoring/pass-rate.js';

describe('pass^k and pass@k with unequal attempts per row', () => {
  it('equal attempts: a row passes^k when it passed all k, as before', () => {
    expect(repeatRates([3, 3, 3], [3, 2, 0])).toMatchObject({ k: 3, rows: 3, passAll: 1 / 3, passAny: 2 / 3 });
  });
  it('one row with 1 attempt, the rest 10: no pass^k at all (k would be 1)', () => {
    expect(repeatRates([10, 10, 1], [10, 9, 1])).toBeUndefined();
  });
  it('rows of 2 and 4 attempts: k = 2, each row from its own attempts', () => {
    // By hand: row 0, 4 attempts, 3 passed: pass^2 = C(3,2)/C(4,2) = 3/6, pass@2 = 1 − C(1,2)/C(4,2) = 1.
    // Row 1, 2 attempts, 2 passed: 1 and 1. Row 2, 4 attempts, 1 passed: 0 and 1 − C(3,2)/C(4,2) = 1/2.
    const rates = repeatRates([4, 2, 4], [3, 2, 1]);
    expect(rates?.k).toBe(2);
    expect(rates?.passAll).toBeCloseTo((0.5 + 1 + 0) / 3, 12);
    expect(rates?.passAny).toBeCloseTo((1 + 1 + 0.5) / 3, 12);
  });
  it('taking k as the most attempts overstated it: 10 rows of 10 at 1 pass in 2, and a row of 2 passing both', () => {
    // As before, k = 10 and the short row counted as passing all: pass^10 = 1/11. From each row's
    // own attempts, with k = 2: (10 · C(5,2)/C(10,2) + 1) / 11 = (10 · 10/45 + 1) / 11.
    const rates = repeatRates([...Array(10).fill(10), 2], [...Array(10).fill(5), 2]);
    expect(rates?.k).toBe(2);
    expect(rates?.passAll).toBeCloseTo((10 * (10 / 45) + 1) / 11, 12);
  });
});
