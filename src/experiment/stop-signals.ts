import { setMaxListeners } from 'node:events';

export interface StopSignals {
  /** Stops dispatching new rows. */
  dispatch: AbortSignal;
  /** Aborts the calls of rows in flight. */
  rows: AbortSignal;
  /** Stops listening to the user's signal (once the rows are done). */
  release: () => void;
}

/**
 * The two ways a run stops. Ctrl-C (`stop`) stops dispatching at once; rows in flight get
 * `graceMs`, then their calls abort. An unreachable server (`halt`, the breaker) stops both at
 * once: calls in flight would only fail.
 */
export function stopSignals(stop: AbortSignal | undefined, halt: AbortSignal, graceMs: number): StopSignals {
  const dispatch = new AbortController();
  const rows = new AbortController();
  // Every in-flight call listens to this one signal; hundreds of listeners are expected.
  setMaxListeners(0, rows.signal);
  if (stop) setMaxListeners(0, stop);
  const onStop = (): void => {
    dispatch.abort();
    setTimeout(() => rows.abort(), graceMs).unref();
  };
  if (stop?.aborted) onStop();
  else stop?.addEventListener('abort', onStop, { once: true });
  halt.addEventListener(
    'abort',
    () => {
      dispatch.abort();
      rows.abort();
    },
    { once: true },
  );
  return { dispatch: dispatch.signal, rows: rows.signal, release: () => stop?.removeEventListener('abort', onStop) };
}
