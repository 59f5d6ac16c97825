import type { RunEvent } from '../experiment/index.js';

/**
 * `--max-cost`: adds up what the live calls of every run `ci` makes have cost (model, judge and
 * a conversation's simulated-user calls; cached answers are free) and, once the sum reaches the limit, aborts `signal`, so the
 * run going on stops dispatching and no later one starts.
 */
export class CostGuard {
  readonly #controller = new AbortController();
  #spent = 0;

  constructor(readonly maxUsd: number | undefined) {}

  /** Aborted once the limit is reached. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get spentUsd(): number {
    return this.#spent;
  }

  get reached(): boolean {
    return this.#controller.signal.aborted;
  }

  /** A run listener: counts each finished row's cost. */
  readonly listen = (event: RunEvent): void => {
    if (event.type !== 'row-end' || event.replayed) return;
    this.#spent += (event.row.costUsd ?? 0) + (event.row.judge?.costUsd ?? 0) + (event.row.simulator?.costUsd ?? 0);
    if (this.maxUsd !== undefined && this.#spent >= this.maxUsd && !this.reached) this.#controller.abort();
  };
}
