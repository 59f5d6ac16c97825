import type { Tool } from 'ai';
import { ModelCallError } from '../errors/index.js';
import type { ResponseCache } from './response-cache.js';
import type { ModelRequest, ModelResponse } from './types.js';

/**
 * `use`: answer from the cache when possible, else call and store.
 * `off`: always call (still storing, so a later `use` run can replay it).
 * `only`: never call; a miss is an error (offline and CI replays).
 */
export type CacheMode = 'use' | 'off' | 'only';

export interface CachedCallOptions {
  cache: ResponseCache;
  mode: CacheMode;
  /** Repeat index: repeats of one row are separate answers, each cached. */
  repeat: number;
  /** Registered tools, so a changed tool description changes the key. */
  tools?: Record<string, Tool>;
}

/** Runs `live` through the response cache according to `mode`. */
export async function cachedCall(
  request: ModelRequest,
  options: CachedCallOptions,
  live: () => Promise<ModelResponse>,
): Promise<ModelResponse> {
  const { cache, mode } = options;
  const key = cache.key(request, options.repeat, options.tools);
  if (mode !== 'off') {
    const hit = await cache.get(key);
    if (hit !== undefined) return { ...hit, cached: true, retries: 0 };
    if (mode === 'only') {
      throw new ModelCallError('MODEL_CACHE_MISS', `${request.modelName}: no cached response for this request (--cache-only)`, {
        hint: 'run once without --cache-only to record it; a changed prompt, setting or repeat count changes the key',
      });
    }
  }
  const response = await live();
  // Waits until the line is queued for the cache file (at once, unless its segment is still
  // opening): the caller appends the row to results.jsonl next, and the cache's lines are
  // written first in every turn (write-turn.ts), so a kill never leaves a stored row whose
  // answer is missing from the cache (a later --cache-only would fail on it). A failed write goes to the cache's onError, never to the row: the answer was paid for.
  const queued = cache.queue(key, response);
  if (queued !== undefined) await queued;
  return response;
}
