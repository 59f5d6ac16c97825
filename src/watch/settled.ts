import { setTimeout as delay } from 'node:timers/promises';
import { flattenErrors, isAgentmarkError } from '../errors/index.js';

/** The pause before a failed load is tried again: an editor's save may still be writing the file. */
export const SETTLE_MS = 150;

/** Errors that come from what a file says (a half-written file says odd things); never a model's or the store's. */
const FILE_ERROR = /^(CONFIG|PROMPT|TEMPLATE|DATASET|EVAL)_/;

export function isFileError(error: unknown): boolean {
  return isAgentmarkError(error) && flattenErrors(error).some((each) => FILE_ERROR.test(each.code));
}

export interface SettleOptions {
  /** Waits before the second try. @default SETTLE_MS, cut short by `signal` */
  settle?: () => Promise<void>;
  signal?: AbortSignal;
}

/**
 * Runs `load`; when it fails on what a file says, waits for the save to settle and runs it once
 * more, so that a file read half-written during a save storm does not flash an error on the
 * screen. Only the second failure is reported (a real mistake fails twice).
 */
export async function loadSettled<T>(load: () => Promise<T>, options: SettleOptions = {}): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (options.signal?.aborted || !isFileError(error)) throw error;
    const settle = options.settle ?? (() => delay(SETTLE_MS, undefined, options.signal ? { signal: options.signal } : {}).catch(() => undefined));
    await settle();
    if (options.signal?.aborted) throw error;
    return load();
  }
}
