import type { LanguageModelMiddleware } from 'ai';
import { backoffDelay, sleep } from './backoff.js';
import { findConnectionFailure, findUnreachableFailure, type ConnectionHealth } from './network-errors.js';
import { formatSeconds } from '../format-seconds.js';
import { trackAttempt, untrackAttempt } from './attempt-hooks.js';
import { releaseController, takeController } from './attempt-controllers.js';
import { estimateTokens, isQuotaExceeded, readRateLimitHeaders, type Permit, type RateLimiter, type RateStats } from './rate-limit/index.js';

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
  /** The key's rate limiter (and the run's tally of its waits): without one nothing is paced. */
  rate?: { limiter: RateLimiter; stats?: RateStats };
}

/** What one model call went through; read after it ends. */
export interface AttemptLog {
  /** Attempts that failed (each one that was followed by another is a retry); a 429 that was waited out is not one. */
  failures: number;
}

/** A 429 saying the account is out of quota (`insufficient_quota`): no wait cures it. */
export class QuotaExceededError extends Error {
  override readonly name = 'QuotaExceededError';
  constructor(readonly failure: unknown) {
    super(failure instanceof Error ? failure.message : 'quota exceeded', { cause: failure });
  }
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
 * Middleware that gives every request its own timeout and owns every retry of a model call: a
 * timed-out attempt, a dropped connection and an HTTP error the provider marks retryable (429,
 * 5xx, 408, 409), waiting what the server's `Retry-After` asks or else our backoff. The AI SDK's
 * own retry is switched off (`maxRetries: 0`) so that the calls that skip `generateText` retry
 * exactly like those that go through it. The caller's own abort is never retried.
 */
export function attemptGuard(policy: AttemptPolicy, log: AttemptLog): LanguageModelMiddleware {
  return {
    specificationVersion: 'v3',
    wrapGenerate: async ({ model, params }) => {
      const callerSignal = params.abortSignal;
      const rate = policy.rate;
      // A request waits for the rate limit (and its 429s) at most --timeout in all.
      const firstAsked = rate === undefined ? 0 : Date.now();
      let refused = 0;
      for (;;) {
        let permit: Permit | undefined;
        if (rate !== undefined) {
          const { limiter, stats } = rate;
          const tokens = limiter.countsTokens ? estimateTokens(params.prompt, params.maxOutputTokens, limiter.outputTokens) : 0;
          permit = limiter.tryAcquire(tokens);
          if (permit === undefined) {
            stats?.startWaiting();
            try {
              permit = await limiter.acquire(tokens, callerSignal, firstAsked + policy.timeoutMs, refused, firstAsked);
            } finally {
              stats?.stopWaiting();
            }
          }
          stats?.observe(limiter);
        }
        // One controller per attempt, aborted by its timer, or by the caller's signal through
        // the caller's one listener (followCaller). AbortSignal.any would leave an entry on the
        // run-long caller signal for every call on Node 20: a leak over a 100,000-row run. An
        // attempt that ended with its signal untouched hands it to a later attempt
        // (attempt-controllers.ts): a new one per row was a measurable part of a fast run.
        const timer = takeController();
        // A provider that ignores its abort signal (a custom one awaiting a promise nobody
        // settles) must not hold the call: the attempt ends when its signal aborts, whatever the
        // provider does. Once our timer had fired nothing held the process open any more, so it
        // ended by itself with exit 0 and the run unfinished.
        let stopAttempt: ((reason: unknown) => void) | undefined;
        const abort = (reason: unknown): void => {
          if (timer.signal.aborted) return;
          timer.abort(reason);
          hooks.onAbort?.();
          stopAttempt?.(reason);
        };
        const timeout = setTimeout(() => abort(new AttemptTimeoutError(policy.timeoutMs)), policy.timeoutMs);
        // Counted again from when the request goes out, if our fetch sends it (see attempt-hooks.ts).
        const hooks = trackAttempt(timer.signal, () => timeout.refresh());
        if (callerSignal?.aborted) abort(callerSignal.reason);
        else if (callerSignal !== undefined) followCaller(callerSignal, abort);
        try {
          const pending = model.doGenerate({ ...params, abortSignal: timer.signal });
          // One promise that the provider's answer or our abort settles, whichever comes first
          // (cheaper than Promise.race with a second promise per attempt).
          const result = timer.signal.aborted
            ? await pending
            : await new Promise<Awaited<typeof pending>>((settle, fail) => {
                stopAttempt = fail;
                pending.then(settle, fail);
              });
          policy.health?.reached();
          if (permit !== undefined) {
            const input = result.usage.inputTokens.total;
            const output = result.usage.outputTokens.total;
            const used = input === undefined && output === undefined ? undefined : (input ?? 0) + (output ?? 0);
            rate?.limiter.succeeded(permit, readRateLimitHeaders(result.response?.headers), used, output);
            permit = undefined;
          }
          return result;
        } catch (error) {
          if (permit !== undefined && rate !== undefined) {
            const limited = !callerSignal?.aborted && isRateLimited(error);
            if (limited && isQuotaExceeded(error)) {
              rate.limiter.released(permit);
              permit = undefined;
              policy.health?.reached();
              throw new QuotaExceededError(error);
            }
            if (limited) {
              // Waited out, not retried: a refused request costs nothing and says nothing of the row.
              rate.limiter.refused(permit, readRateLimitHeaders(error.responseHeaders));
              permit = undefined;
              policy.health?.reached();
              refused += 1;
              if (rate.stats) rate.stats.refused += 1;
              if (Date.now() - firstAsked < policy.timeoutMs) continue;
              throw error;
            }
            rate.limiter.released(permit);
            permit = undefined;
          }
          if (callerSignal?.aborted) throw error;
          reportHealth(policy.health, error);
          const timedOut = timer.signal.aborted && timer.signal.reason instanceof AttemptTimeoutError;
          const failure = timedOut ? new AttemptTimeoutError(policy.timeoutMs) : error;
          log.failures += 1;
          if (log.failures > policy.maxRetries) throw new RetryBudgetExhaustedError(failure, log.failures);
          const backoff = backoffDelay(log.failures, policy.retryDelayMs, policy.random);
          if (timedOut || findConnectionFailure(error) !== undefined) await sleep(backoff, callerSignal);
          else if (isRetryableHttpError(error)) await sleep(retryAfterMs(error.responseHeaders, backoff) ?? backoff, callerSignal);
          else throw error;
        } finally {
          if (permit !== undefined) rate?.limiter.released(permit);
          clearTimeout(timeout);
          untrackAttempt(timer.signal);
          if (callerSignal !== undefined) unfollowCaller(callerSignal, abort);
          releaseController(timer);
        }
      }
    },
  };
}

/** The attempts in flight under each caller signal, aborted together by the signal's one listener. */
const followers = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>();
/** The caller signal last followed and its set: a run has one caller signal, so no lookup per attempt. */
let lastCaller: { signal: AbortSignal; aborts: Set<(reason: unknown) => void> } | undefined;

/**
 * Aborts `abort`'s attempt when `caller` aborts. One listener per caller signal (a run has one),
 * not an add and a remove per attempt: node's EventTarget costs a few µs each, on every row.
 */
function followCaller(caller: AbortSignal, abort: (reason: unknown) => void): void {
  if (lastCaller?.signal === caller) {
    lastCaller.aborts.add(abort);
    return;
  }
  let aborts = followers.get(caller);
  if (aborts === undefined) {
    const set = new Set<(reason: unknown) => void>();
    followers.set(caller, set);
    caller.addEventListener(
      'abort',
      () => {
        for (const each of [...set]) each(caller.reason);
        set.clear();
      },
      { once: true },
    );
    aborts = set;
  }
  lastCaller = { signal: caller, aborts };
  aborts.add(abort);
}

function unfollowCaller(caller: AbortSignal, abort: (reason: unknown) => void): void {
  (lastCaller?.signal === caller ? lastCaller.aborts : followers.get(caller))?.delete(abort);
}

/** A 429 from the provider, as an AI SDK APICallError (checked by shape). */
function isRateLimited(error: unknown): error is { statusCode: 429; responseHeaders?: Record<string, string>; responseBody?: unknown; data?: unknown } {
  return typeof error === 'object' && error !== null && (error as { statusCode?: unknown }).statusCode === 429;
}

/** An AI SDK APICallError (checked by shape: the guard does not load the SDK) the provider says may be retried. */
function isRetryableHttpError(error: unknown): error is { isRetryable: true; statusCode: number; responseHeaders?: Record<string, string> } {
  const candidate = error as { isRetryable?: unknown; statusCode?: unknown } | null;
  return typeof candidate === 'object' && candidate !== null && candidate.isRetryable === true && typeof candidate.statusCode === 'number';
}

/**
 * The wait a server asks for, from `retry-after-ms` (milliseconds) or `retry-after` (seconds, or
 * an HTTP date), when it is a sane one: not negative, and under a minute unless our own backoff
 * would wait longer anyway (the AI SDK's rule, kept so its users see the same waits).
 */
export function retryAfterMs(headers: Record<string, string> | undefined, backoffMs: number, now: number = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  let ms: number | undefined;
  const inMs = headers['retry-after-ms'];
  if (inMs !== undefined && Number.isFinite(Number.parseFloat(inMs))) ms = Number.parseFloat(inMs);
  const after = headers['retry-after'];
  if (ms === undefined && after !== undefined) {
    const seconds = Number.parseFloat(after);
    ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(after) - now;
  }
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return undefined;
  return ms < 60_000 || ms < backoffMs ? ms : undefined;
}

/** An HTTP status proves the server is there; a refused, unresolvable or TLS-failed connection proves it is not. */
function reportHealth(health: ConnectionHealth | undefined, error: unknown): void {
  if (health === undefined) return;
  const unreachable = findUnreachableFailure(error);
  if (unreachable !== undefined) health.unreachable(unreachable);
  else if (typeof (error as { statusCode?: unknown }).statusCode === 'number') health.reached();
}
