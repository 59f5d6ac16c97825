/**
 * What the attempt guard (attempt-guard.ts) and our fetch (node-fetch.ts) tell each other about
 * one HTTP attempt, found by the abort signal the guard hands the provider and the provider hands
 * the fetch. A provider that uses another fetch never looks here and gets the plain signal.
 *
 * - `requestStarting`: the timer of `--timeout` starts when the provider is asked for an answer;
 *   a provider may then spend a while before its first request (the first call in a process
 *   builds its schemas, hundreds of ms on a loaded machine), which must not count against a
 *   per-request timeout, so the fetch restarts the timer as the request goes out.
 * - `onAbort`: the fetch's way to hear the attempt end, instead of an `abort` listener on the
 *   signal (node's EventTarget costs a few µs per add and remove, on every row of a run).
 */
export interface AttemptHooks {
  /** Called by the fetch as its request goes out; only the first call of an attempt counts. */
  requestStarting(): void;
  /** Set by the fetch while its request is in flight; the guard calls it after aborting the signal. */
  onAbort: (() => void) | undefined;
}

// A Map with explicit removal (the guard's `finally`), not a WeakMap: a new key per attempt
// makes a WeakMap's ephemeron table grow and be scanned by every garbage collection.
const attempts = new Map<AbortSignal, AttemptHooks>();

/** Registers an attempt's signal; `start` runs once, when its request goes out. */
export function trackAttempt(signal: AbortSignal, start: () => void): AttemptHooks {
  let started = false;
  const hooks: AttemptHooks = {
    requestStarting() {
      // Once per attempt: a redirect or a second request in the same attempt keeps the first start.
      if (started) return;
      started = true;
      start();
    },
    onAbort: undefined,
  };
  attempts.set(signal, hooks);
  return hooks;
}

export function untrackAttempt(signal: AbortSignal): void {
  attempts.delete(signal);
}

/** The guard's hooks for the signal a fetch was given, if an attempt guard made it. */
export function attemptOf(signal: AbortSignal | null | undefined): AttemptHooks | undefined {
  return signal ? attempts.get(signal) : undefined;
}
