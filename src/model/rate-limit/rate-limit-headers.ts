/** One limit as a provider's headers state it. */
export interface LimitReading {
  /** Per minute (OpenAI's and Anthropic's limits are). */
  limit?: number;
  remaining?: number;
  /** Until the limit is back to full, in ms. */
  resetMs?: number;
}

/** What one answer's headers say of the key's limits. */
export interface RateLimitReading {
  requests?: LimitReading;
  /** Input and output tokens together (OpenAI's `-tokens`, Anthropic's `-tokens`). */
  tokens?: LimitReading;
  /** Anthropic's separate input- and output-token limits. */
  inputTokens?: LimitReading;
  outputTokens?: LimitReading;
  /** `retry-after-ms`, else `retry-after` (seconds or an HTTP date), in ms. */
  retryAfterMs?: number;
}

type Headers = Readonly<Record<string, string | undefined>>;

/**
 * The rate-limit headers of an answer (the AI SDK hands them over as a plain object with
 * lower-case names): OpenAI's `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` (resets as
 * durations, `1s`, `6m0s`, `20ms`), which vLLM, LiteLLM and Azure send too, and Anthropic's
 * `anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}`
 * (resets as RFC 3339 times). Undefined when there are none, which is the common case of a
 * server without limits: three lookups, nothing made.
 */
export function readRateLimitHeaders(headers: Headers | undefined, now: number = Date.now()): RateLimitReading | undefined {
  if (headers === undefined) return undefined;
  const retryAfterMs = retryAfterOf(headers, now);
  const openai = headers['x-ratelimit-limit-requests'] !== undefined || headers['x-ratelimit-limit-tokens'] !== undefined;
  const anthropic = !openai && (headers['anthropic-ratelimit-requests-limit'] !== undefined || headers['anthropic-ratelimit-tokens-limit'] !== undefined || headers['anthropic-ratelimit-input-tokens-limit'] !== undefined);
  if (!openai && !anthropic && retryAfterMs === undefined) return undefined;
  const reading: RateLimitReading = {};
  if (openai) {
    const requests = openaiLimit(headers, 'requests');
    const tokens = openaiLimit(headers, 'tokens');
    if (requests) reading.requests = requests;
    if (tokens) reading.tokens = tokens;
  } else if (anthropic) {
    for (const [name, key] of [['requests', 'requests'], ['tokens', 'tokens'], ['input-tokens', 'inputTokens'], ['output-tokens', 'outputTokens']] as const) {
      const limit = anthropicLimit(headers, name, now);
      if (limit) reading[key] = limit;
    }
  }
  if (retryAfterMs !== undefined) reading.retryAfterMs = retryAfterMs;
  return reading;
}

function openaiLimit(headers: Headers, kind: 'requests' | 'tokens'): LimitReading | undefined {
  return limitOf(headers[`x-ratelimit-limit-${kind}`], headers[`x-ratelimit-remaining-${kind}`], durationMs(headers[`x-ratelimit-reset-${kind}`]));
}

function anthropicLimit(headers: Headers, kind: string, now: number): LimitReading | undefined {
  const reset = headers[`anthropic-ratelimit-${kind}-reset`];
  const at = reset === undefined ? Number.NaN : Date.parse(reset);
  return limitOf(headers[`anthropic-ratelimit-${kind}-limit`], headers[`anthropic-ratelimit-${kind}-remaining`], Number.isFinite(at) ? Math.max(0, at - now) : undefined);
}

function limitOf(limit: string | undefined, remaining: string | undefined, resetMs: number | undefined): LimitReading | undefined {
  const reading: LimitReading = {};
  const max = count(limit);
  const left = count(remaining);
  if (max !== undefined && max > 0) reading.limit = max;
  if (left !== undefined) reading.remaining = left;
  if (resetMs !== undefined) reading.resetMs = resetMs;
  return reading.limit === undefined && reading.remaining === undefined ? undefined : reading;
}

function count(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, µs: 0.001, ns: 0.000001 };

/** `6m0s`, `1.5s`, `20ms`, `1h2m3s`, a bare number of seconds: ms, or undefined. */
export function durationMs(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const parts = /^(?:\d+(?:\.\d+)?(?:h|ms|m|s|us|µs|ns))+$/.test(trimmed) ? trimmed.match(/\d+(?:\.\d+)?(?:h|ms|m|s|us|µs|ns)/g) : null;
  if (parts === null) return undefined;
  let total = 0;
  for (const part of parts) {
    const unit = /[a-zµ]+$/.exec(part)?.[0] ?? 's';
    total += Number(part.slice(0, part.length - unit.length)) * (UNIT_MS[unit] ?? 0);
  }
  return total;
}

/** The wait a 429 asks for: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. */
function retryAfterOf(headers: Headers, now: number): number | undefined {
  const inMs = count(headers['retry-after-ms']);
  if (inMs !== undefined) return inMs;
  const after = headers['retry-after'];
  if (after === undefined) return undefined;
  const seconds = count(after);
  if (seconds !== undefined) return seconds * 1000;
  const at = Date.parse(after);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
