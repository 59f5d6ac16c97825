import { getEventListeners } from 'node:events';

/**
 * The AbortControllers of model-call attempts (attempt-guard.ts), kept for the next attempt
 * when one ends untouched. On Node 20 a new controller and its signal cost ~3–6 µs and a few
 * hundred bytes of garbage (an EventTarget each), once per row of a run.
 *
 * A controller is kept only when its signal is exactly as a new one is: not aborted, no
 * listener left on it, and no property added to it (`AbortSignal.any` adds one to each signal
 * it follows; a signal reused after that would keep every such composite alive). Anything a
 * provider or fetch did to the signal therefore sends it to the garbage collector as before.
 */
const idle: AbortController[] = [];

/** Enough for every attempt in flight at a high `--concurrency`; more are made as needed. */
const MAX_IDLE = 512;

/** How many own keys (the runtime's private symbols) a signal has before anyone touches it. */
const FRESH_KEYS = Reflect.ownKeys(new AbortController().signal).length;

/** A controller for an attempt: a kept one, or a new one. */
export function takeController(): AbortController {
  return idle.pop() ?? new AbortController();
}

/** Keeps `controller` for a later attempt when its signal is untouched; call once its attempt is over. */
export function releaseController(controller: AbortController): void {
  const { signal } = controller;
  if (idle.length >= MAX_IDLE || signal.aborted) return;
  if (Reflect.ownKeys(signal).length !== FRESH_KEYS || getEventListeners(signal, 'abort').length > 0) return;
  idle.push(controller);
}
