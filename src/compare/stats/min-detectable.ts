import { normalQuantile } from '../../scoring/special-functions.js';
import { tQuantile } from '../../scoring/t-distribution.js';

const POWER = 0.8;
/** Beyond this many pairs `pairsNeeded` stops looking. */
const MAX_PAIRS = 1e9;

/**
 * Fewest discordant rows, all one way, that a one-sided exact sign test (McNemar's exact, or
 * the signed-rank test's most extreme pattern) can call significant at one-sided level α:
 * the k with ½^k ≤ α (5 at α = 0.05). No dataset of n pairs can detect a change smaller than k / n.
 */
export function minimumDiscordant(alpha: number): number {
  return Math.ceil(Math.log2(1 / alpha) - 1e-12);
}

/**
 * The smallest drop a test can detect, or why it cannot: `undetectable` when the test cannot
 * reach α at this many pairs whatever the data (fewer pairs than `minimumDiscordant(α)`).
 */
export type Detectable = { value: number } | { undetectable: true };

/**
 * Smallest paired drop in pass rate that McNemar's exact test, one-sided at α, finds with 80%
 * power, given n pairs and the observed share of discordant pairs ψ (Connor 1987's sample size
 * solved for the difference δ: δ√n = z₁₋α√ψ + z₀.₈√(ψ − δ²)). Never below
 * minimumDiscordant(α) / n; with no discordant pair, that floor.
 */
export function minDetectablePassRate(n: number, discordant: number, alpha = 0.05): Detectable | undefined {
  if (n === 0) return undefined;
  if (n < minimumDiscordant(alpha)) return { undetectable: true };
  const psi = discordant / n;
  const za = normalQuantile(1 - alpha);
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
  return { value: Math.min(1, Math.max(delta, minimumDiscordant(alpha) / n)) };
}

/**
 * Smallest mean paired drop (normalised score, or pass share with repeats) that a one-sided
 * paired test at α finds with 80% power: (t₁₋α + t₀.₈)(n − 1) · sd / √n from the spread of the
 * observed differences. The signed-rank test used for the p-value cannot reach α below
 * minimumDiscordant(α) pairs (its smallest one-sided p is ½ⁿ): undetectable there. With
 * differences that do not vary (every row the same), the floor minimumDiscordant(α) / n.
 */
export function minDetectableMean(n: number, sd: number, alpha = 0.05): Detectable | undefined {
  if (n === 0) return undefined;
  if (n < minimumDiscordant(alpha)) return { undetectable: true };
  if (!(sd > 0)) return { value: Math.min(1, minimumDiscordant(alpha) / n) };
  return { value: ((tQuantile(1 - alpha, n - 1) + tQuantile(POWER, n - 1)) * sd) / Math.sqrt(n) };
}

/**
 * Fewest pairs at which `detect(n)` reaches `target` (the same formula, the same spread), for
 * "about N more rows would be needed"; undefined past a billion.
 */
export function pairsNeeded(detect: (n: number) => Detectable | undefined, target: number, from: number): number | undefined {
  const reaches = (n: number): boolean => {
    const d = detect(n);
    return d !== undefined && 'value' in d && d.value <= target + 1e-12;
  };
  let low = Math.max(1, from);
  if (reaches(low)) return low;
  let high = low * 2;
  while (!reaches(high)) {
    if (high > MAX_PAIRS) return undefined;
    low = high;
    high *= 2;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (reaches(mid)) high = mid;
    else low = mid;
  }
  return high;
}
