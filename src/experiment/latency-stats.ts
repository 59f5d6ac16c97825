import { FloatList } from '../scoring/index.js';
import { sortedPercentile } from './percentile.js';

/** Latency of live calls, in ms (cached, pre-generated, errored and warm-up calls left out). */
export interface LatencySummary {
  /** Live calls measured. */
  count?: number;
  mean?: number;
  /** Sample standard deviation (n − 1); absent below two calls. */
  std?: number;
  min?: number;
  /** Nearest-rank percentiles. */
  p50?: number;
  p95?: number;
  max?: number;
  /**
   * With `--repeat`: how much a row's latency varies between its repeats. Each row with two or
   * more live repeats has a mean and a sample standard deviation; `meanStd` is the mean of those
   * deviations over the rows, and `widest` the row whose deviation is largest.
   */
  perRow?: { rows: number; meanStd: number; widest: { index: number; mean: number; std: number } };
}

/** Welford's running mean and sum of squared deviations: one pass, numerically stable. */
interface Running {
  n: number;
  mean: number;
  m2: number;
}

function push(running: Running, value: number): void {
  running.n++;
  const delta = value - running.mean;
  running.mean += delta / running.n;
  running.m2 += delta * (value - running.mean);
}

const sampleStd = (running: Running): number => Math.sqrt(running.m2 / (running.n - 1));

/**
 * Gathers live latencies as rows stream past: every value (for the percentiles; 8 bytes each,
 * in a typed array) and, with repeats, three numbers per row.
 */
export class LatencyStats {
  private readonly values = new FloatList();
  private readonly all: Running = { n: 0, mean: 0, m2: 0 };
  private readonly rows: Map<number, Running> | undefined;

  constructor(repeat: number) {
    this.rows = repeat > 1 ? new Map() : undefined;
  }

  add(index: number, latencyMs: number): void {
    this.values.push(latencyMs);
    push(this.all, latencyMs);
    if (!this.rows) return;
    let running = this.rows.get(index);
    if (!running) this.rows.set(index, (running = { n: 0, mean: 0, m2: 0 }));
    push(running, latencyMs);
  }

  finish(): LatencySummary {
    if (this.values.length === 0) return {};
    // One sorted copy, sorted natively, for the extremes and both percentiles.
    const sorted = Float64Array.from(this.values.values()).sort();
    const min = sorted[0] as number;
    const max = sorted[sorted.length - 1] as number;
    return {
      count: this.all.n,
      mean: this.all.mean,
      ...(this.all.n > 1 ? { std: sampleStd(this.all) } : {}),
      min,
      p50: sortedPercentile(sorted, 50) ?? min,
      p95: sortedPercentile(sorted, 95) ?? max,
      max,
      ...this.perRow(),
    };
  }

  private perRow(): Pick<LatencySummary, 'perRow'> {
    let rows = 0;
    let sum = 0;
    let widest: { index: number; mean: number; std: number } | undefined;
    for (const [index, running] of this.rows ?? []) {
      if (running.n < 2) continue;
      const std = sampleStd(running);
      rows++;
      sum += std;
      if (!widest || std > widest.std) widest = { index, mean: running.mean, std };
    }
    return widest ? { perRow: { rows, meanStd: sum / rows, widest } } : {};
  }
}
