import { describe, expect, it } from 'vitest';
import { LatencyStats } from '../../src/experiment/latency-stats.js';

// Reference values computed independently with Python 3's `statistics` module:
//   statistics.mean(v), statistics.stdev(v) (sample, n − 1); percentiles are nearest-rank
//   (sorted[ceil(p/100·n) − 1]), computed by hand from the sorted list.
describe('LatencyStats', () => {
  it('mean, sample std, min, p50, p95 and max over live calls', () => {
    const stats = new LatencyStats(1);
    [120, 80, 300, 95, 410, 150, 210, 60, 330, 175].forEach((ms, index) => stats.add(index, ms));
    const summary = stats.finish();
    expect(summary).toMatchObject({ count: 10, mean: 193, min: 60, p50: 150, p95: 410, max: 410 });
    expect(summary.std).toBeCloseTo(117.92653080060767, 9);
    expect(summary.perRow).toBeUndefined();
  });

  it('per row across repeats: the mean of the rows’ sample deviations and the widest row', () => {
    const stats = new LatencyStats(3);
    // row 0: 100, 140, 120 (mean 120, stdev 20); row 1: 300, 500 (mean 400, stdev 141.42135623730951);
    // row 2: one live repeat only, left out of the per-row figures but not of the run's.
    for (const [index, ms] of [[0, 100], [1, 300], [0, 140], [2, 50], [1, 500], [0, 120]] as const) stats.add(index, ms);
    const summary = stats.finish();
    expect(summary.count).toBe(6);
    expect(summary.mean).toBeCloseTo(201.66666666666666, 9);
    expect(summary.std).toBeCloseTo(168.80955739135942, 9);
    expect(summary.perRow?.rows).toBe(2);
    expect(summary.perRow?.meanStd).toBeCloseTo(80.71067811865476, 9);
    expect(summary.perRow?.widest.index).toBe(1);
    expect(summary.perRow?.widest.mean).toBeCloseTo(400, 9);
    expect(summary.perRow?.widest.std).toBeCloseTo(141.4213562373095, 9);
  });

  it('nothing measured: an empty summary; one call: no std', () => {
    expect(new LatencyStats(1).finish()).toEqual({});
    const one = new LatencyStats(1);
    one.add(0, 42);
    expect(one.finish()).toEqual({ count: 1, mean: 42, min: 42, p50: 42, p95: 42, max: 42 });
  });
});
