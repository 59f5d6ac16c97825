/** A user's own ceiling on a key (`--rpm`/`--tpm`, `rateLimit` in the config), below the provider's. */
export interface RateCaps {
  rpm?: number;
  tpm?: number;
  /** Named in the progress line: `--rpm`, `rateLimit.openai in the config`. */
  by: string;
}

/** Leave to the request the limiter let through; hand it back with one of the limiter's outcomes. */
export interface Permit {
  /** The concurrency window's generation when it was granted: a 429 halves the window once per generation. */
  readonly epoch: number;
  /** Tokens charged up front (the estimate, scaled), corrected when the answer's usage is known. */
  readonly tokens: number;
  /** The caller's own estimate, before scaling. */
  readonly estimate: number;
}

/** Refused: the request waited for the rate limit longer than its deadline (`--timeout` in all). */
export class RateLimitWaitError extends Error {
  override readonly name = 'RateLimitWaitError';
  constructor(readonly waitedMs: number, readonly refused: number) {
    super(`waited ${Math.round(waitedMs / 100) / 10}s for the rate limit${refused > 0 ? ` (${refused} request${refused === 1 ? '' : 's'} refused with 429)` : ''}`);
  }
}

export interface Waiter {
  tokens: number;
  resolve: (permit: Permit) => void;
  reject: (error: unknown) => void;
  cleanup: () => void;
}
