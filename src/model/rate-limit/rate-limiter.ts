import type { RateLimitReading } from './rate-limit-headers.js';
import { LOW_SHARE, minOf, PROVIDER_SHARE, rateText, tolerance } from './pace.js';
import { RateLimitWaitError, type Permit, type RateCaps, type Waiter } from './permit.js';

/**
 * The pace of one provider key and model family, shared by every caller in the process (runs,
 * judges, agents): see limiters.ts. Three gates, each open until something closes it, so a key
 * without limits costs one check a request:
 *
 * - **requests**: spaced at the rate the provider's headers state (or a user's cap), as a GCRA
 *   with a small tolerance, so a late timer does not lose the slot;
 * - **tokens**: a bucket of one second of the token rate, charged an estimate before the call and
 *   corrected from the usage after;
 * - **concurrency**: unlimited until a 429; then halved (once per window of requests), and
 *   widened by one per window of successes (AIMD) until it reaches the ceiling (`--concurrency`),
 *   where it opens again.
 *
 * A 429 also closes everything until its `retry-after`.
 */
export class RateLimiter {
  readonly #now: () => number;
  #ceiling = 1;
  /** Requests allowed in flight; Infinity while no 429 has narrowed it. */
  #window = Number.POSITIVE_INFINITY;
  #inFlight = 0;
  #epoch = 0;
  #providerRpm: number | undefined;
  #providerTpm: number | undefined;
  #caps: { rpm?: { value: number; by: string }; tpm?: { value: number; by: string } } = {};
  /** Theoretical arrival time of the next request (GCRA). */
  #tat = Number.NEGATIVE_INFINITY;
  #tokenLevel = 0;
  #tokenAt = 0;
  #blockedUntil = 0;
  #queue: Waiter[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  /** What the last wait was for, and when: the progress line's "paced". */
  #pacedAt = Number.NEGATIVE_INFINITY;
  #pacedBy: 'requests' | 'tokens' | 'window' = 'requests';
  /** Output tokens of an answer, on average: the estimate's share for the answer. */
  #outputTokens = 16;
  /** What the usage counted over what the caller estimated, on average (its tokenizer is not ours). */
  #tokenScale = 1;
  /** The provider's request bucket is nearly empty (its last `remaining`, or a 429). */
  #low = false;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Raises the concurrency ceiling to a caller's `--concurrency` (the largest one counts). */
  widen(concurrency: number): void {
    if (concurrency > this.#ceiling) this.#ceiling = concurrency;
  }

  /** Adds a user's caps; the lowest cap given in the process holds. */
  cap(caps: RateCaps): void {
    if (caps.rpm !== undefined && caps.rpm > 0 && !(this.#caps.rpm !== undefined && this.#caps.rpm.value <= caps.rpm)) this.#caps.rpm = { value: caps.rpm, by: caps.by };
    if (caps.tpm !== undefined && caps.tpm > 0 && !(this.#caps.tpm !== undefined && this.#caps.tpm.value <= caps.tpm)) {
      const fresh = this.#tokenRate() === undefined;
      this.#caps.tpm = { value: caps.tpm, by: caps.by };
      if (fresh) this.#fillTokens();
    }
  }

  /** Whether requests must be charged tokens (a token rate is known). */
  get countsTokens(): boolean {
    return this.#tokenRate() !== undefined;
  }

  /** The estimate of an answer's tokens, from the answers seen. */
  get outputTokens(): number {
    return this.#outputTokens;
  }

  /** Requests in flight now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** What paces requests now, e.g. `100 req/s by the provider`; undefined when nothing waited in the last 2 s. */
  pacing(): string | undefined {
    // Never paced (a key without limits): no clock read, once a call.
    if (this.#pacedAt === Number.NEGATIVE_INFINITY || this.#now() - this.#pacedAt > 2000) return undefined;
    if (this.#pacedBy === 'window') return `${Math.floor(this.#window)} in flight after 429s`;
    const kind = this.#pacedBy;
    const provider = kind === 'requests' ? this.#providerRpm : this.#providerTpm;
    const cap = this.#caps[kind === 'requests' ? 'rpm' : 'tpm'];
    const byCap = cap !== undefined && (provider === undefined || cap.value <= provider * PROVIDER_SHARE);
    const perMinute = byCap ? cap.value : (provider ?? 0);
    const unit = kind === 'requests' ? 'req' : 'tokens';
    return `${rateText(perMinute, unit)} by ${byCap ? cap.by : 'the provider'}`;
  }

  /** A permit at once, or undefined when the request must wait (then call `acquire`). */
  tryAcquire(tokens: number): Permit | undefined {
    if (this.#queue.length > 0) return undefined;
    return this.#grant(tokens, this.#now());
  }

  /** A permit once the gates open; rejects with the signal's reason, or RateLimitWaitError at `deadline`. */
  acquire(tokens: number, signal: AbortSignal | undefined, deadline: number, refused: number, since: number): Promise<Permit> {
    const now = this.#now();
    const first = this.#queue.length === 0 ? this.#grant(tokens, now) : undefined;
    if (first !== undefined) return Promise.resolve(first);
    return new Promise<Permit>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const leave = (error: unknown): void => {
        const at = this.#queue.indexOf(waiter);
        if (at >= 0) this.#queue.splice(at, 1);
        waiter.cleanup();
        reject(error);
        this.#drain();
      };
      const onAbort = (): void => leave(signal?.reason);
      const timer = setTimeout(() => leave(new RateLimitWaitError(this.#now() - since, refused)), Math.max(0, deadline - now));
      const waiter: Waiter = {
        tokens,
        resolve,
        reject,
        cleanup: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
      this.#drain();
    });
  }

  /** The request was answered: its headers and the tokens its usage counted (undefined: not said). */
  succeeded(permit: Permit, reading: RateLimitReading | undefined, usedTokens: number | undefined, outputTokens: number | undefined): void {
    this.#inFlight -= 1;
    if (Number.isFinite(this.#window)) {
      this.#window += 1 / this.#window;
      if (this.#window >= this.#ceiling) this.#window = Number.POSITIVE_INFINITY;
    }
    if (usedTokens !== undefined && this.#tokenRate() !== undefined) {
      this.#refillTokens(this.#now());
      this.#tokenLevel = Math.min(this.#tokenCapacity(), this.#tokenLevel + permit.tokens - usedTokens);
      if (permit.estimate > 0) this.#tokenScale += (usedTokens / permit.estimate - this.#tokenScale) / 8;
    }
    if (outputTokens !== undefined) this.#outputTokens += (outputTokens - this.#outputTokens) / 8;
    if (reading !== undefined) this.#read(reading);
    this.#drain();
  }

  /** The request was refused with a 429 that a wait will cure. */
  refused(permit: Permit, reading: RateLimitReading | undefined): void {
    this.#inFlight -= 1;
    const now = this.#now();
    if (permit.epoch === this.#epoch) {
      // Once per window: the other requests already in flight meet the same limit.
      this.#epoch += 1;
      const base = Number.isFinite(this.#window) ? this.#window : Math.min(this.#ceiling, this.#inFlight + 1);
      this.#window = Math.max(1, Math.floor(base / 2));
    }
    if (this.#tokenRate() !== undefined) this.#tokenLevel = Math.min(this.#tokenCapacity(), this.#tokenLevel + permit.tokens);
    if (reading !== undefined) this.#read(reading);
    this.#low = true;
    const interval = this.#interval();
    const wait = reading?.retryAfterMs ?? (interval === undefined ? 1000 : interval);
    this.#blockedUntil = Math.max(this.#blockedUntil, now + wait);
    this.#tat = Math.max(this.#tat, this.#blockedUntil);
    this.#drain();
  }

  /** The request ended otherwise (an error, a timeout, an abort). */
  released(_permit: Permit): void {
    this.#inFlight -= 1;
    this.#drain();
  }

  #read(reading: RateLimitReading): void {
    const requests = reading.requests;
    if (requests?.limit !== undefined) this.#providerRpm = requests.limit;
    if (requests?.remaining !== undefined && this.#providerRpm !== undefined) this.#low = requests.remaining < this.#providerRpm * 0.05;
    const tokens = reading.tokens ?? reading.inputTokens;
    if (tokens?.limit !== undefined && tokens.limit !== this.#providerTpm) {
      const fresh = this.#tokenRate() === undefined;
      this.#providerTpm = tokens.limit;
      if (fresh) this.#fillTokens();
      else this.#tokenLevel = Math.min(this.#tokenLevel, this.#tokenCapacity());
    }
    if (requests?.remaining === 0 && requests.resetMs !== undefined) {
      // Empty: the next request is the one that refills first, not a guess at the rate.
      const interval = this.#interval();
      this.#blockedUntil = Math.max(this.#blockedUntil, this.#now() + (interval === undefined ? requests.resetMs : Math.min(requests.resetMs, interval)));
    }
  }

  /** Grants a permit now if every gate is open. */
  #grant(tokens: number, now: number): Permit | undefined {
    if (this.#inFlight >= this.#window) {
      this.#pacedAt = now;
      this.#pacedBy = 'window';
      return undefined;
    }
    if (now < this.#blockedUntil) return undefined;
    const interval = this.#interval();
    if (interval !== undefined && now < this.#tat - this.#tolerance()) {
      this.#pacedAt = now;
      this.#pacedBy = 'requests';
      return undefined;
    }
    let charge = 0;
    if (this.#tokenRate() !== undefined) {
      this.#refillTokens(now);
      charge = Math.ceil(tokens * this.#tokenScale);
      if (this.#tokenLevel < Math.min(charge, this.#tokenCapacity())) {
        this.#pacedAt = now;
        this.#pacedBy = 'tokens';
        return undefined;
      }
      this.#tokenLevel -= charge;
    }
    if (interval !== undefined) this.#tat = Math.max(this.#tat, now) + interval;
    this.#inFlight += 1;
    return { epoch: this.#epoch, tokens: charge, estimate: charge === 0 ? 0 : tokens };
  }

  /** Lets the waiting requests go, first come first served, and sets the timer for the next. */
  #drain(): void {
    if (this.#queue.length === 0) return;
    const now = this.#now();
    while (this.#queue.length > 0) {
      const head = this.#queue[0] as Waiter;
      const permit = this.#grant(head.tokens, now);
      if (permit === undefined) break;
      this.#queue.shift();
      head.cleanup();
      head.resolve(permit);
    }
    if (this.#queue.length === 0) return;
    const at = this.#wakeAt(now, (this.#queue[0] as Waiter).tokens);
    if (at === undefined || at >= this.#timerAt) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Number.POSITIVE_INFINITY;
      this.#drain();
    }, Math.max(0, at - now));
    // Each waiter's own deadline timer keeps the process up; this one must not once they are gone.
    this.#timer.unref();
  }

  /** When the head of the queue may go, or undefined when it waits for a request to end. */
  #wakeAt(now: number, tokens: number): number | undefined {
    if (this.#inFlight >= this.#window) return undefined;
    let at = Math.max(now, this.#blockedUntil);
    const interval = this.#interval();
    if (interval !== undefined) at = Math.max(at, this.#tat - this.#tolerance());
    const rate = this.#tokenRate();
    if (rate !== undefined) {
      const need = Math.min(Math.ceil(tokens * this.#tokenScale), this.#tokenCapacity()) - this.#tokenLevel;
      if (need > 0) at = Math.max(at, now + need / rate);
    }
    // A timer set for the very moment may fire a hair early; a millisecond on is never too soon.
    return Math.ceil(at + 0.5);
  }

  #tolerance(): number {
    const interval = this.#interval();
    return this.#low || interval === undefined ? 0 : tolerance(interval);
  }

  /** Milliseconds between requests, when a request rate is known. */
  #interval(): number | undefined {
    const rpm = minOf(this.#providerRpm === undefined ? undefined : this.#providerRpm * (this.#low ? LOW_SHARE : PROVIDER_SHARE), this.#caps.rpm?.value);
    return rpm === undefined ? undefined : 60_000 / rpm;
  }

  /** Tokens a millisecond, when a token rate is known. */
  #tokenRate(): number | undefined {
    const tpm = minOf(this.#providerTpm === undefined ? undefined : this.#providerTpm * PROVIDER_SHARE, this.#caps.tpm?.value);
    return tpm === undefined ? undefined : tpm / 60_000;
  }

  #tokenCapacity(): number {
    return (this.#tokenRate() ?? 0) * 1000;
  }

  #fillTokens(): void {
    this.#tokenLevel = this.#tokenCapacity();
    this.#tokenAt = this.#now();
  }

  #refillTokens(now: number): void {
    const rate = this.#tokenRate() ?? 0;
    this.#tokenLevel = Math.min(this.#tokenCapacity(), this.#tokenLevel + (now - this.#tokenAt) * rate);
    this.#tokenAt = now;
  }
}
