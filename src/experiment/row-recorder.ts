import type { RunHandleLike } from '../store/index.js';
import type { RunListener } from './events.js';
import type { RunAccumulator } from './run-summary.js';
import type { RowResult } from './types.js';

/** Rows recorded but not yet reported past which `record` waits (bounds memory behind a slow reporter). */
const MAX_BEHIND = 256;

/**
 * Stores finished rows and reports them. `record` queues the row's line (written with the rest
 * of its event-loop turn, see write-turn.ts) and returns at once, so the row's worker moves on
 * to its next request; the row is counted and its `row-end` sent only once its line is in the
 * file, in the order rows were recorded, so a kill never loses a row a reporter showed.
 * Waiting for the write in the worker instead cost a latency-bound run (1,000 rows at 100 ms,
 * c=50) ~7% of its wall time: the turn's end came 0.5–30 ms after the row.
 */
export class RowRecorder {
  #reported: Promise<void> = Promise.resolve();
  #behind = 0;
  #recorded = 0;
  /** Rows recorded while earlier ones are still being reported: reported in one go, in order. */
  #batch: RowResult[] | undefined;
  /** The first failure of a write or a listener: the next `record` throws it, stopping the run. */
  #failure: unknown;

  constructor(
    private readonly handle: RunHandleLike,
    private readonly accumulator: RunAccumulator,
    private readonly emit: RunListener,
    private readonly now: () => number = Date.now,
  ) {}

  /** Rows stored by this process so far. */
  get recorded(): number {
    return this.#recorded;
  }

  readonly record = async (finished: RowResult): Promise<void> => {
    if (this.#failure !== undefined) throw this.#failure;
    // The row's end in time, so a trace of the run (live or `runs export`) places it exactly. Set
    // on the row itself (its last key, as a copy's would be): the row is this run's own object,
    // and a copy of its twenty-odd keys a row was a tenth of what recording allocated.
    if (finished.endedAt === undefined) finished.endedAt = new Date(this.now()).toISOString();
    // Throws when an earlier write failed: the run stops there.
    this.handle.append(finished);
    this.#recorded += 1;
    this.#behind += 1;
    if (this.#batch !== undefined) {
      this.#batch.push(finished);
    } else {
      // The rows recorded until the previous rows are reported are reported together: one wait
      // for their write (they are all queued by then, so one turn's write holds them all) and
      // one promise, rather than a promise, a closure and a wait a row.
      const batch = [finished];
      this.#batch = batch;
      const reported = this.#reported.then(async () => {
        this.#batch = undefined;
        await this.handle.written();
        for (const row of batch) {
          this.accumulator.add(row);
          this.#behind -= 1;
          // Most listeners answer at once (undefined): no await, so no microtask hop, for those rows.
          const told = this.emit({ type: 'row-end', row });
          if (told !== undefined) await told;
        }
      });
      this.#reported = reported;
      reported.catch((error: unknown) => {
        this.#failure ??= error;
      });
    }
    if (this.#behind > MAX_BEHIND) await this.#reported;
  };

  /** Resolves once every recorded row is written and reported; rejects with the first failure. */
  settled(): Promise<void> {
    return this.#reported;
  }
}
