import type { RateLimiter } from './rate-limiter.js';

/**
 * One run's share of the rate limit: the 429s its requests met and the time any of them spent
 * waiting for capacity (wall time, not summed over the requests waiting together), for the
 * summary; and what paces it now, for the progress line.
 */
export class RateStats {
  /** Requests refused with 429 (each one waited and went again; none was a row's error). */
  refused = 0;
  #waiting = 0;
  #since = 0;
  #waitedMs = 0;
  #paced: string | undefined;
  readonly #now: () => number;
  readonly #onPaced: ((paced: string | undefined) => void) | undefined;

  constructor(onPaced?: (paced: string | undefined) => void, now: () => number = Date.now) {
    this.#onPaced = onPaced;
    this.#now = now;
  }

  /** Milliseconds during which at least one of the run's requests waited. */
  get waitedMs(): number {
    return this.#waitedMs + (this.#waiting > 0 ? this.#now() - this.#since : 0);
  }

  /** What paces the run, e.g. `100 req/s by the provider`, or undefined. */
  get paced(): string | undefined {
    return this.#paced;
  }

  startWaiting(): void {
    if (this.#waiting++ === 0) this.#since = this.#now();
  }

  stopWaiting(): void {
    if (--this.#waiting === 0) this.#waitedMs += this.#now() - this.#since;
  }

  /** Looks at the limiter's pacing after a request was let through; tells the listener of a change. */
  observe(limiter: RateLimiter): void {
    const paced = limiter.pacing();
    if (paced === this.#paced) return;
    this.#paced = paced;
    this.#onPaced?.(paced);
  }
}
