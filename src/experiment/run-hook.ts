import { formatSeconds } from '../format-seconds.js';
import { messageOf } from '../scoring/error-message.js';
import { activeResources, noteLeftOpen } from './hook-handles.js';

export type HookOutcome = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Runs one user hook, sync or async, and never throws: a throw, a rejection or running past
 * `timeoutMs` is an outcome to record. The hook runs in this thread (what `setup` returns must
 * reach `teardown` as it is), so the timeout is a race: it cuts off a hook that awaits, not a
 * synchronous infinite loop, which blocks the whole process (see the README).
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
    const work = Promise.resolve().then(() => call(done.signal));
    work.catch(() => undefined);
    return { ok: true, value: await Promise.race([work, stop]) };
  } catch (error) {
    return { ok: false, error: `${name} hook: ${messageOf(error)}` };
  } finally {
    clearTimeout(timer);
    done.abort();
    noteLeftOpen(name, before);
  }
}
