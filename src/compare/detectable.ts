import type { RawEvalStats } from './eval-statistics.js';
import { minDetectableMean, minDetectablePassRate, minimumDiscordant, pairsNeeded, type Detectable } from './stats/index.js';
import { mcnemarPower } from './stats/mcnemar-power.js';

/** `detect` for pairsNeeded: the target itself when the exact test's power reaches 0.8 at it (power rises with the drop), else past it. */
function mcnemarReaches(power: { n: number; discordant: number }, alpha: number, target: number): (n: number) => Detectable | undefined {
  const k = minimumDiscordant(alpha);
  return (n) => {
    if (n < k) return { undetectable: true };
    if (n > 20_000) return minDetectablePassRate(n, (power.discordant / power.n) * n, alpha);
    return { value: target >= k / n && mcnemarPower(n, power.discordant / power.n, target, alpha) >= 0.8 ? target : Math.max(target, k / n) + 1e-6 };
  };
}

function detect(power: NonNullable<RawEvalStats['power']>, n: number, alpha: number): Detectable | undefined {
  if (power.test === 'mcnemar') return minDetectablePassRate(n, (power.discordant / power.n) * n, alpha);
  // At another n, the same share of the rows changed.
  return minDetectableMean(n, power.sd, alpha, Math.round((power.nonZero / power.n) * n));
}

/**
 * The smallest drop each eval's own test detects with 80% power, at the level the gate reads
 * it: one-sided, α divided by the evals tested (Holm's strictest step, so the figure holds
 * whatever the other evals do). Sets `minDetectable` (or `undetectable`) and `detectableAlpha`
 * on each comparison, and returns per eval the paired rows needed to detect `target`.
 */
export function assignDetectable(raw: readonly RawEvalStats[], alpha: number, target: number): Map<string, number> {
  const tested = raw.filter((r) => r.power !== undefined).length;
  const level = alpha / Math.max(1, tested);
  const needed = new Map<string, number>();
  for (const r of raw) {
    if (!r.power) continue;
    const power = r.power;
    r.comparison.detectableAlpha = level;
    const drop = r.dropBound?.(level);
    if (drop !== undefined) r.comparison.dropLowerBound = drop;
    const found = detect(power, power.n, level);
    if (found && 'value' in found) r.comparison.minDetectable = found.value;
    else if (found) r.comparison.undetectable = true;
    if (found && 'value' in found && found.value <= target + 1e-12) continue;
    // Whether n pairs reach the target: for McNemar, the exact power at the target itself (one
    // power sum, not a search for the detectable drop at every n tried).
    const reaches = power.test === 'mcnemar' ? mcnemarReaches(power, level, target) : (n: number) => detect(power, n, level);
    const rows = pairsNeeded(reaches, target, power.n);
    if (rows !== undefined) needed.set(r.comparison.name, rows);
  }
  return needed;
}
