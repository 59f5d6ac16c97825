import { normalQuantile } from '../../scoring/special-functions.js';

const POWER = 0.8;

/**
 * Fewest discordant rows, all one way, that McNemar's exact test can call significant at α:
 * k with 2·½^k ≤ α (6 at α = 0.05). No dataset can detect a change smaller than k / n.
 */
export function minimumDiscordant(alpha: number): number {
  return Math.ceil(Math.log2(2 / alpha));
}

/**
 * Smallest paired difference in pass rate that a two-sided test at α finds with 80% power,
 * given n pairs and the observed share of discordant pairs ψ (Connor 1987's sample size for
 * McNemar's test, solved for the difference δ: δ√n = z₁₋α/₂√ψ + z₀.₈√(ψ − δ²)). Never below
 * minimumDiscordant(α) / n.
 */
export function minDetectablePassRate(n: number, discordant: number, alpha = 0.05): number | undefined {
  if (n === 0) return undefined;
  const psi = discordant / n;
  const za = normalQuantile(1 - alpha / 2);
  const zb = normalQuantile(POWER);
  const f = (delta: number): number => delta * Math.sqrt(n) - za * Math.sqrt(psi) - zb * Math.sqrt(Math.max(0, psi - delta * delta));
  let delta = psi;
  if (psi > 0 && f(psi) > 0) {
    let lo = 0;
    let hi = psi;
    for (let i = 0; i < 100; i++) {
      const mid = (lo + hi) / 2;
      if (f(mid) < 0) lo = mid;
      else hi = mid;
    }
    delta = hi;
  }
  return Math.min(1, Math.max(delta, minimumDiscordant(alpha) / n));
}

/**
 * Smallest mean difference in normalised score that a two-sided paired test at α finds with
 * 80% power: (z₁₋α/₂ + z₀.₈) · sd / √n, from the spread of the observed differences.
 * Undefined below two pairs or when the differences do not vary.
 */
export function minDetectableMean(n: number, sd: number, alpha = 0.05): number | undefined {
  if (n < 2 || !(sd > 0)) return undefined;
  return ((normalQuantile(1 - alpha / 2) + normalQuantile(POWER)) * sd) / Math.sqrt(n);
}
