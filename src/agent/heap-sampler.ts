/** How often the heap is sampled while an agent runs. */
const SAMPLE_MS = 5;
const MB = 1024 * 1024;

/**
 * The peak heap growth while an agent row runs: `heapUsed` at its start, then sampled every few
 * ms and at its end (a timer that never holds the process open). The heap is shared by every row
 * in flight, so the figure is exact only when the row ran alone (`--concurrency 1`); a row that
 * overlapped another at any moment is marked approximate.
 */
export class HeapSampler {
  private static readonly active = new Set<HeapSampler>();
  private readonly start = process.memoryUsage().heapUsed;
  private peak = this.start;
  private alone = true;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    if (HeapSampler.active.size > 0) {
      this.alone = false;
      for (const other of HeapSampler.active) other.alone = false;
    }
    HeapSampler.active.add(this);
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  private sample(): void {
    const used = process.memoryUsage().heapUsed;
    if (used > this.peak) this.peak = used;
  }

  /** The peak growth in MB (two decimals) and whether another row ran at the same time. */
  stop(): { peakMemoryMb: number; approximate: boolean } {
    this.sample();
    clearInterval(this.timer);
    HeapSampler.active.delete(this);
    return { peakMemoryMb: Math.round((Math.max(0, this.peak - this.start) / MB) * 100) / 100, approximate: !this.alone };
  }
}
