import { describe, expect, test } from 'vitest';
import { compareRuns } from '../../src/compare/index.js';
import { minDetectableMean, minDetectablePassRate, type Detectable } from '../../src/compare/stats/index.js';
import { mcnemarPower } from '../../src/compare/stats/mcnemar-power.js';
import { onTempDir } from '../store/fixtures.js';
import { fail, makeRun, pass, type RowSpec } from './make-run.js';

let root: string;
onTempDir((dir) => {
  root = dir;
});
const value = (d: Detectable | undefined): number => (d && 'value' in d ? d.value : NaN);

// Constants: `python3 test/fixtures/statistics/mcnemar-power-reference.py` (scipy's binom,
// summed over every discordant count), the line "mcnemar n discordant".
describe("McNemar's detectable drop comes from the exact one-sided test's power", () => {
  test('the power sum matches scipy at Connor (1987)\'s δ, where it falls short of 0.8', () => {
    // "power at connor": 155 pairs, 31 discordant, δ = 0.08871599034659683 → 0.7657 (not 0.8)
    expect(mcnemarPower(155, 31 / 155, 0.08871599034659683, 0.05)).toBeCloseTo(0.7657222747821535, 9);
    expect(mcnemarPower(50, 10 / 50, 0.15400286413586345, 0.05)).toBeCloseTo(0.736852732843879, 9);
    expect(mcnemarPower(20, 4 / 20, 0.2, 0.05)).toBeCloseTo(0.3703517360973315, 9);
  });
  test('the drop at which the exact test reaches 80% power ("delta80")', () => {
    for (const [n, discordant, delta] of [
      [20, 4, 0.3132998786374238],
      [50, 10, 0.16313871835550192],
      [155, 31, 0.09253721917378631],
      [100, 30, 0.14093893485975398],
    ] as const) {
      const found = value(minDetectablePassRate(n, discordant, 0.05));
      expect(found).toBeCloseTo(delta, 5);
      // Really 0.8 at the figure reported, never below it.
      expect(mcnemarPower(n, discordant / n, found, 0.05)).toBeGreaterThanOrEqual(0.8);
    }
  });
});

describe('the signed-rank test counts the rows that changed', () => {
  test('one changed row of 20: the spread says 4.3 points, but no p below α is attainable; the floor is 5 rows of 20', () => {
    // differences: −1/3 once, 0 nineteen times: sd = 0.074536; (t(0.95, 19) + t(0.8, 19)) · sd / √20 = 0.0432
    expect(value(minDetectableMean(20, 0.07453559924999299, 0.05, 1))).toBeCloseTo(5 / 20, 12);
    // With 5 or more rows changed the rank test can reach α (½⁵ < 0.05): the spread decides.
    expect(value(minDetectableMean(20, 0.07453559924999299, 0.05, 5))).toBeCloseTo(0.043167, 5);
  });

  test('20 rows × 3 repeats, one changed row: inconclusive, not "no regression"', async () => {
    const row = (i: number, head: boolean): RowSpec => ({ input: { i }, evals: { ok: head && i === 0 ? [pass(), fail(), pass()] : [pass(), pass(), pass()] } });
    const base = await makeRun(root, { id: '20261130-100000.001-abcdef', rows: Array.from({ length: 20 }, (_, i) => row(i, false)), evalNames: ['ok'] });
    const head = await makeRun(root, { id: '20261130-100000.002-abcdef', rows: Array.from({ length: 20 }, (_, i) => row(i, true)), evalNames: ['ok'] });
    const result = await compareRuns(base, head, { projectRoot: root });
    const ok = result.evals[0];
    expect(ok?.passRate?.test).toBe('wilcoxon');
    expect(ok?.minDetectable).toBeCloseTo(0.25, 12);
    expect(result.gate.outcome).toBe('inconclusive');
    expect(ok?.gate?.reason).toContain('smallest detectable drop 25.0 points > max drop 5');
  });
});
