import { ModelCallError } from '../errors/index.js';
import { formatSeconds } from '../format-seconds.js';
import { baseUrlOf, type ConnectionHealth, type UnreachableFailure } from '../model/index.js';

export interface BreakerPolicy {
  /** Attempts in a row that could not reach the server. @default 5 */
  failures?: number;
  /** ...spread over at least this long, so a server restarting for a moment is ridden out. @default 2000 */
  windowMs?: number;
  now?: () => number;
}

/** Why the breaker opened: what the last attempts ran into. */
export interface Unreachable {
  /** The base URL the calls went to, when the error named it. */
  baseUrl: string | undefined;
  /** The low-level error, e.g. `connect ECONNREFUSED 127.0.0.1:8080`. */
  reason: string;
  attempts: number;
  spanMs: number;
}

/**
 * Watches every HTTP attempt of a run. After `failures` attempts in a row (over at least
 * `windowMs`) that could not reach the server — refused, unresolvable, no TLS — it opens once
 * and calls `onOpen`: the runner stops dispatching instead of spending every remaining row's
 * retries on a dead server (a 500-row run took 205 s that way). Any answer from the server,
 * a 429 or 500 included, resets the count; timeouts and dropped connections count for nothing.
 */
export class CircuitBreaker implements ConnectionHealth {
  readonly #failures: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #onOpen: (why: Unreachable) => void;
  #streak = 0;
  #since = 0;
  #opened: Unreachable | undefined;

  constructor(onOpen: (why: Unreachable) => void, policy: BreakerPolicy = {}) {
    this.#onOpen = onOpen;
    this.#failures = policy.failures ?? 5;
    this.#windowMs = policy.windowMs ?? 2000;
    this.#now = policy.now ?? Date.now;
  }

  /** Set once the breaker opened. */
  get opened(): Unreachable | undefined {
    return this.#opened;
  }

  /** Attempts have failed to reach the server since its last answer. */
  get failing(): boolean {
    return this.#streak > 0;
  }

  reached(): void {
    this.#streak = 0;
  }

  unreachable(failure: UnreachableFailure): void {
    if (this.#opened) return;
    const now = this.#now();
    if (this.#streak === 0) this.#since = now;
    this.#streak += 1;
    if (this.#streak < this.#failures || now - this.#since < this.#windowMs) return;
    this.#opened = {
      baseUrl: failure.url === undefined ? undefined : baseUrlOf(failure.url),
      reason: failure.error.message,
      attempts: this.#streak,
      spanMs: now - this.#since,
    };
    this.#onOpen(this.#opened);
  }
}

/** Exit 2 (a set-up problem to fix, like a wrong base URL), never 1: the rows not run have no verdict. */
export function unreachableError(why: Unreachable, runId: string, notRun: number | undefined): ModelCallError {
  const where = why.baseUrl === undefined ? 'the model server' : `the model server at ${why.baseUrl}`;
  const left = notRun === undefined ? 'the remaining rows were not run' : `${notRun} row${notRun === 1 ? '' : 's'} not run`;
  return new ModelCallError(
    'MODEL_UNREACHABLE',
    `${where} is unreachable: ${why.reason} (${why.attempts} attempts in a row over ${formatSeconds(why.spanMs)}); stopped with ${left}`,
    {
      hint: `start the server or fix the base URL (OPENAI_BASE_URL, or baseURL in the config), then continue with --resume ${runId}`,
    },
  );
}
