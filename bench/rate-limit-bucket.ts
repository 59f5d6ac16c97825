/**
 * A provider's rate limit as the loopback servers enforce it (the bench server, and the test
 * suite's OpenAI stand-in): a request bucket and a token bucket, each refilled continuously at
 * its per-minute rate and holding `burstSeconds` of it (OpenAI enforces a per-minute limit over
 * shorter windows too: 6,000 RPM is about 100 requests in any second, not 6,000 at once). Each
 * answer carries OpenAI's headers; a refusal is a 429 with OpenAI's body.
 *
 * - `x-ratelimit-limit-requests` / `-tokens`: the per-minute limit;
 * - `x-ratelimit-remaining-requests` / `-tokens`: what the bucket holds, on the per-minute scale;
 * - `x-ratelimit-reset-requests` / `-tokens`: the time until the bucket is full, as OpenAI
 *   writes durations (`1s`, `6m0s`, `20ms`, `1.5s`);
 * - on a 429, `retry-after` (whole seconds, rounded up) and `retry-after-ms`.
 */

export interface RateLimitSettings {
  /** Requests a minute. @default no request limit */
  rpm?: number;
  /** Tokens a minute (prompt and answer, as the answer's usage counts them). @default no token limit */
  tpm?: number;
  /** Seconds of the per-minute rate each bucket holds. @default 1 */
  burstSeconds?: number;
  /** Refuse every request with `insufficient_quota` (a 429 with no reset coming). */
  quotaExceeded?: boolean;
}

export type RateDecision =
  | { ok: true; headers: Record<string, string> }
  | { ok: false; status: 429; headers: Record<string, string>; body: { error: { message: string; type: string; param: null; code: string } } };

interface Bucket {
  /** Per minute. */
  limit: number;
  /** What a full bucket holds. */
  capacity: number;
  level: number;
  at: number;
}

/** The buckets of one key; `now` is in milliseconds (the server's clock). */
export class RateLimitBuckets {
  #settings: RateLimitSettings;
  #requests: Bucket | undefined;
  #tokens: Bucket | undefined;
  readonly #now: () => number;
  /** Requests refused with 429 since the buckets were made. */
  refused = 0;

  constructor(settings: RateLimitSettings, now: () => number = () => performance.now()) {
    this.#now = now;
    this.#settings = settings;
    this.#requests = bucketOf(settings.rpm, settings, now());
    this.#tokens = bucketOf(settings.tpm, settings, now());
  }

  /** Changes the limits from now on; a bucket keeps its level, cut to its new capacity. */
  set(settings: RateLimitSettings): void {
    const now = this.#now();
    const carry = (old: Bucket | undefined, fresh: Bucket | undefined): Bucket | undefined => {
      if (fresh === undefined || old === undefined) return fresh;
      refill(old, now);
      return { ...fresh, level: Math.min(old.level, fresh.capacity) };
    };
    this.#settings = settings;
    this.#requests = carry(this.#requests, bucketOf(settings.rpm, settings, now));
    this.#tokens = carry(this.#tokens, bucketOf(settings.tpm, settings, now));
  }

  get settings(): RateLimitSettings {
    return this.#settings;
  }

  /** Takes one request costing `tokens`, or refuses it. */
  take(tokens: number): RateDecision {
    const now = this.#now();
    const requests = this.#requests;
    const tokenBucket = this.#tokens;
    if (this.#settings.quotaExceeded) {
      this.refused += 1;
      return {
        ok: false,
        status: 429,
        headers: {},
        body: {
          error: {
            message: 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
            type: 'insufficient_quota',
            param: null,
            code: 'insufficient_quota',
          },
        },
      };
    }
    if (requests) refill(requests, now);
    if (tokenBucket) refill(tokenBucket, now);
    const short =
      requests && requests.level < 1
        ? { bucket: requests, need: 1, kind: 'requests', label: 'requests per min (RPM)', asked: 1 }
        : tokenBucket && tokenBucket.level < Math.min(tokens, tokenBucket.capacity)
          ? { bucket: tokenBucket, need: Math.min(tokens, tokenBucket.capacity), kind: 'tokens', label: 'tokens per min (TPM)', asked: tokens }
          : undefined;
    if (short !== undefined) {
      this.refused += 1;
      const waitMs = Math.max(1, Math.ceil(((short.need - short.bucket.level) * 60_000) / short.bucket.limit));
      const used = Math.round(short.bucket.limit - (short.bucket.level / short.bucket.capacity) * short.bucket.limit);
      return {
        ok: false,
        status: 429,
        headers: { ...this.#headers(), 'retry-after': String(Math.ceil(waitMs / 1000)), 'retry-after-ms': String(waitMs) },
        body: {
          error: {
            message: `Rate limit reached for bench-model in organization org-loopback on ${short.label}: Limit ${short.bucket.limit}, Used ${used}, Requested ${short.asked}. Please try again in ${formatDuration(waitMs)}. Visit https://platform.openai.com/account/rate-limits to learn more.`,
            type: short.kind,
            param: null,
            code: 'rate_limit_exceeded',
          },
        },
      };
    }
    if (requests) requests.level -= 1;
    if (tokenBucket) tokenBucket.level -= tokens;
    return { ok: true, headers: this.#headers() };
  }

  #headers(): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, bucket] of [['requests', this.#requests], ['tokens', this.#tokens]] as const) {
      if (bucket === undefined) continue;
      const level = Math.max(0, bucket.level);
      headers[`x-ratelimit-limit-${name}`] = String(bucket.limit);
      headers[`x-ratelimit-remaining-${name}`] = String(Math.floor((level / bucket.capacity) * bucket.limit));
      headers[`x-ratelimit-reset-${name}`] = formatDuration(((bucket.capacity - level) * 60_000) / bucket.limit);
    }
    return headers;
  }
}

function bucketOf(limit: number | undefined, settings: RateLimitSettings, now: number): Bucket | undefined {
  if (limit === undefined) return undefined;
  const capacity = Math.max(1, (limit / 60) * (settings.burstSeconds ?? 1));
  return { limit, capacity, level: capacity, at: now };
}

function refill(bucket: Bucket, now: number): void {
  bucket.level = Math.min(bucket.capacity, bucket.level + ((now - bucket.at) * bucket.limit) / 60_000);
  bucket.at = now;
}

/** A duration as OpenAI's headers write it (Go's style): `20ms`, `1.5s`, `6m0s`, `1h2m3s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const totalSeconds = ms / 1000;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = Math.round((totalSeconds % 60) * 1000) / 1000;
  if (hours === 0 && minutes === 0) return `${seconds}s`;
  return `${hours > 0 ? `${hours}h` : ''}${minutes}m${seconds}s`;
}
