/**
 * Lets the HTTP layer tell an attempt's timer that its request is going out now. The timer of
 * `--timeout` (attemptGuard) starts when the provider is asked for an answer; a provider may
 * then spend a while before its first request (the first call in a process builds its schemas,
 * hundreds of ms on a loaded machine), which must not count against a per-request timeout.
 * `nodeFetch` finds the attempt by the abort signal the provider hands it and restarts the
 * timer; a provider that uses another fetch keeps the earlier start.
 */
const starters = new WeakMap<AbortSignal, () => void>();

export function onRequestStart(signal: AbortSignal, start: () => void): void {
  starters.set(signal, start);
}

/** Called by the fetch that sends the request, with the signal it was given. */
export function requestStarting(signal: AbortSignal | null | undefined): void {
  if (!signal) return;
  const start = starters.get(signal);
  if (start === undefined) return;
  // Once per attempt: a redirect or a second request in the same attempt keeps the first start.
  starters.delete(signal);
  start();
}
