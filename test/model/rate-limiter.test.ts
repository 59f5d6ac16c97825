import { describe, expect, it } from 'vitest';
import { RateLimiter, type Permit } from '../../src/model/index.js';

/** A limiter on a clock the test moves. */
function limiter(): { limiter: RateLimiter; clock: { now: number } } {
  const clock = { now: 1_000_000 };
  return { limiter: new RateLimiter(() => clock.now), clock };
}

/** Permits granted at this instant, until one is refused. */
function burst(limit: RateLimiter, tokens = 0): Permit[] {
  const permits: Permit[] = [];
  for (let p = limit.tryAcquire(tokens); p !== undefined; p = limit.tryAcquire(tokens)) permits.push(p);
  return permits;
}

const openai = (limit: number, remaining: number) => ({ requests: { limit, remaining, resetMs: 10 } });

describe('the rate limiter', () => {
  it('without any limit known, lets everything through at once (the pool bounds concurrency)', () => {
    const { limiter: limit } = limiter();
    limit.widen(20);
    expect(Array.from({ length: 100 }, () => limit.tryAcquire(0)).every((p) => p !== undefined)).toBe(true);
    expect(limit.pacing()).toBeUndefined();
  });

  it("spaces requests at 99% of the headers' limit, 250 ms early at most", () => {
    const { limiter: limit, clock } = limiter();
    const first = limit.tryAcquire(0) as Permit;
    limit.succeeded(first, openai(6000, 5999), undefined, undefined);
    // 60,000 ms ÷ (6,000 × 0.99) = 10.101 ms a slot; slots k·10.101 ≤ 250 go now: k = 0..24.
    expect(burst(limit)).toHaveLength(25);
    clock.now += 10.2;
    expect(burst(limit)).toHaveLength(1);
    expect(limit.pacing()).toBe('100 req/s by the provider');
  });

  it('with under 5% of the bucket left, paces at 90% with no tolerance', () => {
    const { limiter: limit, clock } = limiter();
    const first = limit.tryAcquire(0) as Permit;
    limit.succeeded(first, openai(6000, 299), undefined, undefined);
    expect(burst(limit)).toHaveLength(1);
    // 60,000 ÷ (6,000 × 0.9) = 11.11 ms.
    clock.now += 11;
    expect(burst(limit)).toHaveLength(0);
    clock.now += 0.2;
    expect(burst(limit)).toHaveLength(1);
  });

  it('halves the window on a 429 (once for the requests already out), waits its retry-after, then widens by one a window', () => {
    const { limiter: limit, clock } = limiter();
    limit.widen(20);
    const out: Permit[] = [];
    for (let i = 0; i < 8; i++) out.push(limit.tryAcquire(0) as Permit);
    limit.refused(out[0] as Permit, { retryAfterMs: 100 });
    limit.refused(out[1] as Permit, { retryAfterMs: 100 });
    // 8 in flight when the first 429 came: window 4; the second 429 was of the same generation.
    expect(limit.inFlight).toBe(6);
    expect(limit.tryAcquire(0)).toBeUndefined();
    clock.now += 100;
    // Still 6 in flight over a window of 4.
    expect(limit.tryAcquire(0)).toBeUndefined();
    expect(limit.pacing()).toBe('4 in flight after 429s');
    for (const permit of out.slice(2, 5)) limit.succeeded(permit, undefined, undefined, undefined);
    // 3 in flight, window 4 + 1/4 + 1/4.25 + 1/4.49 ≈ 4.69: a request goes while fewer than that are out (3, 4).
    expect(burst(limit)).toHaveLength(2);
  });

  it('--rpm 60 is one request a second, named as the cap', () => {
    const { limiter: limit, clock } = limiter();
    limit.cap({ rpm: 60, by: '--rpm' });
    limit.cap({ rpm: 120, by: 'a looser cap' });
    expect(burst(limit)).toHaveLength(1);
    // A slot of 1,000 ms may go 10,000 ÷ 1,000 = 10 ms early.
    clock.now += 989;
    expect(burst(limit)).toHaveLength(0);
    clock.now += 1;
    expect(burst(limit)).toHaveLength(1);
    expect(limit.pacing()).toBe('1 req/s by --rpm');
  });

  it('charges tokens up front and corrects them from the usage', () => {
    const { limiter: limit, clock } = limiter();
    // 6,000 tokens a minute: 100 a second, a bucket of one second.
    limit.cap({ tpm: 6000, by: '--tpm' });
    expect(limit.countsTokens).toBe(true);
    const first = limit.tryAcquire(60) as Permit;
    expect(first.tokens).toBe(60);
    expect(limit.tryAcquire(60)).toBeUndefined();
    // The answer used 20: 40 come back, 80 in the bucket.
    limit.succeeded(first, undefined, 20, 10);
    // ...and estimates now scale by 1 + (20/60 − 1)/8 = 0.9167: 60 → 55.
    const second = limit.tryAcquire(60) as Permit;
    expect(second.tokens).toBe(55);
    expect(limit.tryAcquire(60)).toBeUndefined();
    clock.now += 300;
    expect(limit.tryAcquire(60)).toBeDefined();
    expect(limit.pacing()).toBe('100 tokens/s by --tpm');
  });
});
