import type { Interval } from './api.js';

// The CLI's compare report formats its numbers the same way (src/report/compare/format-numbers.ts);
// the browser test checks the page's text against those functions. Display only: every value
// comes from the CompareResponse as the server's comparison engine computed it.

/** A difference (fraction) as signed points: `+8.3`, `−12.0`, `0.0`. */
export function signedPoints(fraction: number): string {
  const value = fraction * 100;
  const text = Math.abs(value).toFixed(1);
  if (text === '0.0') return '0.0';
  return `${value > 0 ? '+' : '−'}${text}`;
}

export function pointsInterval(interval: Interval | undefined): string {
  return interval ? `[${signedPoints(interval[0])}, ${signedPoints(interval[1])}]` : 'n/a';
}

/** A p-value with two significant digits; tiny ones as `< 0.001`. */
export function formatP(p: number | undefined): string {
  if (p === undefined) return 'n/a';
  if (p < 0.001) return '< 0.001';
  return p >= 0.995 ? '1.00' : p.toPrecision(2);
}

/** A rate or mean with its interval, in percent: `83.3% [55.2–95.3]`. */
export function valueWithInterval(value: number | undefined, interval: Interval | undefined): string {
  if (value === undefined) return 'n/a';
  const main = `${(value * 100).toFixed(1)}%`;
  return interval ? `${main} [${(interval[0] * 100).toFixed(1)}–${(interval[1] * 100).toFixed(1)}]` : main;
}
