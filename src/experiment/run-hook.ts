import { formatSeconds } from '../format-seconds.js';
import { messageOf } from '../scoring/error-message.js';
import { activeResources, noteLeftOpen } from './hook-handles.js';
import { callGuarded, HookStuckError } from './hook-guard.js';

export type HookOutcome = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Runs one user hook, sync or async: a throw, a rejection or running past `timeoutMs` is an
 * outcome to record. The hook runs in this thread (what `setup` returns must reach `teardown` as
 * it is), so the timeout is a race that cuts off a hook that awaits; a synchronous endless loop is
 * stopped by V8's watchdog (hook-guard.ts) and throws HookStuckError, which ends the run.
 */
export async function runHook(name: string, call: (signal: AbortSignal) => unknown, timeoutMs: number): Promise<HookOutcome> {
  // Before our own timer: what is more numerous afterwards, the hook opened (see hook-handles.ts).
  const before = activeResources();
  const done = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${formatSeconds(timeoutMs)}`)), timeoutMs);
  });
  try {
    // Calling inside then() turns a synchronous throw into a rejection like an async one.
    const work = Promise.resolve().then(() => callGuarded(name, () => call(done.signal), timeoutMs));
    work.catch(() => undefined);
    return { ok: true, value: await Promise.race([work, stop]) };
  } catch (error) {
    // A hook that had to be stopped stops the run: every row's would loop the same way.
    if (error instanceof HookStuckError) throw error;
    return { ok: false, error: `${name} hook: ${messageOf(error)}` };
  } finally {
    clearTimeout(timer);
    done.abort();
    noteLeftOpen(name, before);
  }
}
