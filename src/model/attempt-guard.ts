import type { LanguageModelMiddleware } from 'ai';
import { backoffDelay, sleep } from './backoff.js';
import { findConnectionFailure, findUnreachableFailure, type ConnectionHealth } from './network-errors.js';
import { formatSeconds } from '../format-seconds.js';

export interface AttemptPolicy {
  /** Each HTTP request is aborted after this long. */
  timeoutMs: number;
  /** Failed attempts that may be retried, shared by this guard and the AI SDK's own retry. */
  maxRetries: number;
  /** First backoff wait for timeouts and connection failures; doubles each retry. */
  retryDelayMs: number;
  random: () => number;
  /** Told of each attempt that reached the server or could not. */
  health?: ConnectionHealth;
}

/** What one model call went through; read after it ends. */
export interface AttemptLog {
  /** Attempts that failed (each one that was followed by another is a retry). */
  failures: number;
}

/** An attempt ran longer than the policy allows; its request was aborted. */
export class AttemptTimeoutError extends Error {
  override readonly name = 'AttemptTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${formatSeconds(timeoutMs)}`);
  }
}

/**
 * Thrown when the retry budget is spent. It is deliberately not an APICallError, so the AI SDK's
 * retry stops too; `failure` is the last real error.
 */
export class RetryBudgetExhaustedError extends Error {
  override readonly name = 'RetryBudgetExhaustedError';
  constructor(readonly failure: unknown, readonly attempts: number) {
    super(`failed after ${attempts} attempts`, { cause: failure });
  }
}

/**
 * Middleware that gives every request its own timeout and retries what the AI SDK's retry does
 * not: a timed-out attempt (the SDK treats any abort as final) and a dropped connection (so it
 * gets our backoff instead of the SDK's fixed 2 s start). HTTP errors are left to the SDK, which
 * honours Retry-After. The caller's own abort is never retried.
 */
export function attemptGuard(policy: AttemptPolicy, log: AttemptLog): LanguageModelMiddleware {
  return {
    specificationVersion: 'v3',
    wrapGenerate: async ({ model, params }) => {
      const callerSignal = params.abortSignal;
      for (;;) {
        // One controller per attempt, fed by the timer and by the caller's signal through a
        // listener removed in `finally`. (AbortSignal.any would leave an entry on the run-long
        // caller signal for every call on Node 20: a leak over a 100,000-row run.)
        const timer = new AbortController();
        const timeout = setTimeout(() => timer.abort(new AttemptTimeoutError(policy.timeoutMs)), policy.timeoutMs);
        const forward = (): void => timer.abort(callerSignal?.reason);
        if (callerSignal?.aborted) forward();
        else callerSignal?.addEventListener('abort', forward, { once: true });
        try {
          const result = await model.doGenerate({ ...params, abortSignal: timer.signal });
          policy.health?.reached();
          return result;
        } catch (error) {
          if (callerSignal?.aborted) throw error;
          reportHealth(policy.health, error);
          const timedOut = timer.signal.aborted && timer.signal.reason instanceof AttemptTimeoutError;
          const failure = timedOut ? new AttemptTimeoutError(policy.timeoutMs) : error;
          log.failures += 1;
          if (log.failures > policy.maxRetries) throw new RetryBudgetExhaustedError(failure, log.failures);
          if (!timedOut && findConnectionFailure(error) === undefined) throw error;
          await sleep(backoffDelay(log.failures, policy.retryDelayMs, policy.random), callerSignal);
        } finally {
          clearTimeout(timeout);
          callerSignal?.removeEventListener('abort', forward);
        }
      }
    },
  };
}

/** An HTTP status proves the server is there; a refused, unresolvable or TLS-failed connection proves it is not. */
function reportHealth(health: ConnectionHealth | undefined, error: unknown): void {
  if (health === undefined) return;
  const unreachable = findUnreachableFailure(error);
  if (unreachable !== undefined) health.unreachable(unreachable);
  else if (typeof (error as { statusCode?: unknown }).statusCode === 'number') health.reached();
}
