import type { BoundEval, EvalParams, ScoredEval } from './types.js';
import { validateResult } from './validate-result.js';
import { formatSeconds } from '../format-seconds.js';

export interface RunEvalOptions {
  /** How long a scorer may take before its result is recorded as an error. @default 30000 */
  timeoutMs?: number;
  /** Aborting records the eval as an error at once (its promise is left to settle alone). */
  signal?: AbortSignal;
}


function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : `non-error thrown: ${JSON.stringify(error) ?? String(error)}`;
}

class EvalStop extends Error {}

/**
 * Runs one bound eval on one row and validates its result. Never throws: a throw, a timeout,
 * an abort or a schema break is recorded as `error`, so one bad scorer cannot stop a run.
 *
 * The timeout only bounds asynchronous work. A synchronous scorer that loops forever blocks the
 * event loop, so no timer can fire; JavaScript cannot preempt it short of running scorers in a
 * worker, which would cost every row a structured clone of its params.
 */
export async function runEval(bound: BoundEval, params: EvalParams, options: RunEvalOptions = {}): Promise<ScoredEval> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const { signal } = options;
  if (signal?.aborted) return { error: 'aborted' };
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EvalStop(`timed out after ${formatSeconds(timeoutMs)}`)), timeoutMs);
    onAbort = () => reject(new EvalStop('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    // Calling inside then() turns a synchronous throw into a rejection like an async one.
    const work = Promise.resolve().then(() => bound.scorer({ ...params, schema: bound.schema }));
    // A scorer that fails after its timeout must not surface as an unhandled rejection.
    work.catch(() => undefined);
    const result: unknown = await Promise.race([work, stop]);
    return validateResult(result, bound.schema);
  } catch (error) {
    return { error: messageOf(error) };
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
