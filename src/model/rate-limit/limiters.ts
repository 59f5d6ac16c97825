import { RateLimiter } from './rate-limiter.js';

/**
 * Every limiter of the process, by provider + key + model family (see limitKeyOf): the runs of
 * one `run-experiment` (several prompts or models), their judges and agents' `ctx.model` calls
 * meet the same provider limit, so they share one pace. Kept for the process's life: a few
 * objects, one per key and model family used.
 */
const limiters = new Map<string, RateLimiter>();

export function rateLimiterFor(key: string, now?: () => number): RateLimiter {
  let limiter = limiters.get(key);
  if (limiter === undefined) {
    limiter = new RateLimiter(now);
    limiters.set(key, limiter);
  }
  return limiter;
}

/**
 * A model's family, which a provider's limit is counted on: the id without a date or version
 * suffix (`gpt-4o-mini-2024-07-18` → `gpt-4o-mini`, `claude-3-5-haiku-20241022` →
 * `claude-3-5-haiku`, `…-latest` → `…`). Ids of one family then share a limiter.
 */
export function modelFamily(modelId: string): string {
  return modelId.replace(/-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/, '');
}
