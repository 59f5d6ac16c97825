import { normalQuantile } from '../../scoring/special-functions.js';
import { tQuantile } from '../../scoring/t-distribution.js';
import { mcnemarPower } from './mcnemar-power.js';

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

/** Past this many pairs the exact power sum gives way to Connor's approximation (discreteness no longer matters there). */
const EXACT_POWER_LIMIT = 20_000;

/**
 * Smallest paired drop in pass rate that McNemar's exact test, one-sided at α, finds with 80%
 * power, given n pairs and the observed share of discordant pairs ψ: the δ at which the exact
 * test's power (`mcnemarPower`, which takes the discordant share as max(ψ, δ)) first reaches
 * 0.8, found by bisection (power rises with δ). Connor (1987)'s normal-theory formula,
 * δ√n = z₁₋α√ψ + z₀.₈√(ψ − δ²), overstated the power of the discrete test (0.56–0.785 at its δ at
 * small n); it is used only past 20,000 pairs. Never below minimumDiscordant(α) / n.
 */
export function minDetectablePassRate(n: number, discordant: number, alpha = 0.05): Detectable | undefined {
  if (n === 0) return undefined;
  const k = minimumDiscordant(alpha);
  if (n < k) return { undetectable: true };
  const psi = discordant / n;
  if (n > EXACT_POWER_LIMIT) return { value: Math.min(1, Math.max(connorDelta(n, psi, alpha), k / n)) };
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 40 && hi - lo > 1e-6; i++) {
    const mid = (lo + hi) / 2;
    if (mcnemarPower(n, psi, mid, alpha) >= POWER) hi = mid;
    else lo = mid;
  }
  return { value: Math.min(1, Math.max(hi, k / n)) };
}

/** Connor (1987)'s sample-size equation solved for δ (with δ ≤ ψ; ψ itself when even δ = ψ falls short). */
function connorDelta(n: number, psi: number, alpha: number): number {
  const za = normalQuantile(1 - alpha);
  const zb = normalQuantile(POWER);
  const f = (delta: number): number => delta * Math.sqrt(n) - za * Math.sqrt(psi) - zb * Math.sqrt(Math.max(0, psi - delta * delta));
  if (!(psi > 0) || f(psi) <= 0) return psi;
  let lo = 0;
  let hi = psi;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) < 0) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * Smallest mean paired drop (normalised score, or pass share with repeats) that the one-sided
 * signed-rank test at α finds with 80% power: (t₁₋α + t₀.₈)(n − 1) · sd / √n from the spread of
 * the observed differences. The rank test drops zero differences, and its smallest one-sided p
 * with z non-zero ones is ½ᶻ: with fewer than k = minimumDiscordant(α) rows changed it could
 * not reach α on what was seen, and a drop is only seen once k rows move: then the figure is
 * never below k / n (k rows moving all the way, the floor the sign pattern allows). That is what
 * makes 20 rows × 3 repeats with one changed row inconclusive (25 points) rather than "no
 * regression" at the 4.3 points the spread of that one changed row suggests. The same floor when
 * the differences do not vary. Undetectable below k pairs (½ⁿ > α).
 */
export function minDetectableMean(n: number, sd: number, alpha = 0.05, nonZero = n): Detectable | undefined {
  if (n === 0) return undefined;
  const k = minimumDiscordant(alpha);
  if (n < k) return { undetectable: true };
  const floor = Math.min(1, k / n);
  if (!(sd > 0)) return { value: floor };
  const value = ((tQuantile(1 - alpha, n - 1) + tQuantile(POWER, n - 1)) * sd) / Math.sqrt(n);
  return { value: Math.min(1, nonZero < k ? Math.max(floor, value) : value) };
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
