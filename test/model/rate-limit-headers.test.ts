import { describe, expect, it } from 'vitest';
import { readRateLimitHeaders } from '../../src/model/index.js';
import { durationMs } from '../../src/model/rate-limit/index.js';
import { formatDuration } from '../../bench/rate-limit-bucket.js';

describe('rate-limit headers', () => {
  it("reads OpenAI's x-ratelimit-* headers, resets as Go durations", () => {
    expect(
      readRateLimitHeaders({
        'x-ratelimit-limit-requests': '6000',
        'x-ratelimit-remaining-requests': '5999',
        'x-ratelimit-reset-requests': '10ms',
        'x-ratelimit-limit-tokens': '1000000',
        'x-ratelimit-remaining-tokens': '999700',
        'x-ratelimit-reset-tokens': '6m0s',
      }),
    ).toEqual({ requests: { limit: 6000, remaining: 5999, resetMs: 10 }, tokens: { limit: 1_000_000, remaining: 999_700, resetMs: 360_000 } });
  });

  it("reads Anthropic's anthropic-ratelimit-* headers, resets as RFC 3339 times", () => {
    const now = Date.parse('2026-12-01T12:00:00Z');
    expect(
      readRateLimitHeaders(
        {
          'anthropic-ratelimit-requests-limit': '50',
          'anthropic-ratelimit-requests-remaining': '49',
          'anthropic-ratelimit-requests-reset': '2026-12-01T12:00:01Z',
          'anthropic-ratelimit-input-tokens-limit': '40000',
          'anthropic-ratelimit-input-tokens-remaining': '39000',
          'anthropic-ratelimit-input-tokens-reset': '2026-12-01T12:00:01.500Z',
          'anthropic-ratelimit-output-tokens-limit': '8000',
          'anthropic-ratelimit-output-tokens-remaining': '8000',
          'anthropic-ratelimit-output-tokens-reset': '2026-12-01T12:00:00Z',
          'retry-after': '2',
        },
        now,
      ),
    ).toEqual({
      requests: { limit: 50, remaining: 49, resetMs: 1000 },
      inputTokens: { limit: 40_000, remaining: 39_000, resetMs: 1500 },
      outputTokens: { limit: 8000, remaining: 8000, resetMs: 0 },
      retryAfterMs: 2000,
    });
  });

  it('takes retry-after-ms over retry-after, and an HTTP date', () => {
    expect(readRateLimitHeaders({ 'retry-after': '3', 'retry-after-ms': '250' })).toEqual({ retryAfterMs: 250 });
    const now = Date.parse('Tue, 01 Dec 2026 12:00:00 GMT');
    expect(readRateLimitHeaders({ 'retry-after': 'Tue, 01 Dec 2026 12:00:04 GMT' }, now)).toEqual({ retryAfterMs: 4000 });
  });

  it('is undefined for an answer without them', () => {
    expect(readRateLimitHeaders({ 'content-type': 'application/json' })).toBeUndefined();
    expect(readRateLimitHeaders(undefined)).toBeUndefined();
  });

  it('parses the duration formats, and refuses what is not one', () => {
    expect([durationMs('1s'), durationMs('6m0s'), durationMs('20ms'), durationMs('1.5s'), durationMs('1h2m3s'), durationMs('2m59.56s'), durationMs('7')]).toEqual([
      1000, 360_000, 20, 1500, 3_723_000, 179_560, 7000,
    ]);
    expect(durationMs('soon')).toBeUndefined();
    expect(durationMs('5 s')).toBeUndefined();
  });

  it("the loopback servers write durations as OpenAI does, and they read back", () => {
    expect([formatDuration(20), formatDuration(1000), formatDuration(1500), formatDuration(360_000), formatDuration(3_723_000)]).toEqual(['20ms', '1s', '1.5s', '6m0s', '1h2m3s']);
    for (const ms of [20, 1000, 1500, 360_000, 3_723_000]) expect(durationMs(formatDuration(ms))).toBe(ms);
  });
});
