import { FloatList } from '../scoring/index.js';
import { sortedPercentile } from './percentile.js';
import type { AgentMemorySummary, RowResult } from './types.js';

/** Collects each agent row's peak heap growth as rows stream past: 8 bytes a row. */
export class AgentMemoryStats {
  private readonly peaks = new FloatList();
  private approximate = false;

  add(row: RowResult): void {
    const peak = row.agent?.peakMemoryMb;
    if (peak === undefined) return;
    this.peaks.push(peak);
    if (row.agent?.memoryApproximate) this.approximate = true;
  }

  finish(): AgentMemorySummary | undefined {
    const sorted = Float64Array.from(this.peaks.values()).sort();
    if (sorted.length === 0) return undefined;
    return { rows: sorted.length, max: sorted[sorted.length - 1] as number, p95: sortedPercentile(sorted, 95) as number, approximate: this.approximate };
  }
}
