import { lnGamma } from '../../scoring/special-functions.js';

/**
 * One draw from Binomial(n, p) by inversion, walking outward from the mode (or up from 0 when
 * n·p is small): exact, and ~√(n·p·(1 − p)) steps a draw, so a bootstrap over 100,000 rows
 * stays cheap when the data take few distinct values.
 */
export function sampleBinomial(n: number, p: number, random: () => number): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (p > 0.5) return n - sampleBinomial(n, 1 - p, random);
  const q = 1 - p;
  const ratio = p / q;
  let u = random();
  if (n * p < 20) {
    let x = 0;
    let f = Math.exp(n * Math.log1p(-p));
    while (u > f && x < n) {
      u -= f;
      x += 1;
      f *= ((n - x + 1) / x) * ratio;
    }
    return x;
  }
  const mode = Math.floor((n + 1) * p);
  const fMode = Math.exp(lnGamma(n + 1) - lnGamma(mode + 1) - lnGamma(n - mode + 1) + mode * Math.log(p) + (n - mode) * Math.log(q));
  if (u <= fMode) return mode;
  u -= fMode;
  let up = mode;
  let down = mode;
  let fUp = fMode;
  let fDown = fMode;
  for (;;) {
    if (up < n) {
      fUp *= ((n - up) / (up + 1)) * ratio;
      up += 1;
      if (u <= fUp) return up;
      u -= fUp;
    }
    if (down > 0) {
      fDown *= (down / (n - down + 1)) / ratio;
      down -= 1;
      if (u <= fDown) return down;
      u -= fDown;
    }
    // Only rounding leaves mass unaccounted once both tails have vanished.
    if ((up >= n || fUp < 1e-300) && (down <= 0 || fDown < 1e-300)) return mode;
  }
}
