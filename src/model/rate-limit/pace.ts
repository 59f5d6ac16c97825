/**
 * Paced at this share of the provider's stated limit: a client exactly at the limit meets a
 * 429 whenever its requests bunch on the way (measured on the bench's 6,000 RPM server: 0.97
 * keeps the refusals under 1% and costs 3% of the wall).
 */
export const PROVIDER_SHARE = 0.99;
/**
 * ...and at this share, with no tolerance, while the provider says its bucket is nearly empty
 * (under 5% left, or after a 429): the bucket then refills instead of meeting every request
 * that goes a little early.
 */
export const LOW_SHARE = 0.9;

/**
 * How early a request may go before its slot, so that a timer firing late or an event loop busy
 * with the rows does not lose the slot: 250 ms (measured on the 6,000 RPM bench on a loaded
 * machine: a slot's tolerance, 10 ms, ran 13% under the rate, 50 ms 12%; the token bucket, a
 * second deep, lost nothing). The slots stay where they are (GCRA): over any stretch the pace is
 * the rate, and at most 250 ms of it goes at once, after a stall. Slow paces get less, 10 s² ÷
 * the slot (a slot of 100 ms: 100 ms; `--rpm 60`: 10 ms), so one request a second stays that.
 * None while the provider's bucket is nearly empty.
 */
export function tolerance(interval: number): number {
  return Math.min(250, 10_000 / interval);
}

export function minOf(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

/** `100 req/s`, `1 req/s`, `30 req/min`, `16,667 tokens/s`. */
export function rateText(perMinute: number, unit: string): string {
  const perSecond = perMinute / 60;
  if (perSecond >= 1) return `${Number(perSecond.toFixed(perSecond >= 10 ? 0 : 1)).toLocaleString('en-US')} ${unit}/s`;
  return `${Number(perMinute.toFixed(1)).toLocaleString('en-US')} ${unit}/min`;
}
