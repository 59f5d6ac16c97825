import { passRateStats } from '../scoring/pass-rate.js';
import { meanStats } from '../scoring/statistics.js';
import { bootstrapMeanInterval, mcnemarExact, newcombePairedInterval, normalQuantile, pairedT, tQuantile, wilcoxonSignedRank, type PairedTResult } from './stats/index.js';
import { scoreChange, type EvalPairs } from './eval-pairs.js';
import type { EvalComparison, SideStats } from './types.js';

/**
 * What the smallest detectable drop is computed from, once α is known across evals. `nonZero`:
 * the differences the signed-rank test ranks (not zero).
 */
export type PowerInput = { test: 'mcnemar'; n: number; discordant: number } | { test: 'mean'; n: number; sd: number; nonZero: number };

export interface RawEvalStats {
  comparison: EvalComparison;
  /** Two-sided and one-sided ("head worse") p-values of the eval's test, before Holm. */
  pValue?: number;
  pWorse?: number;
  power?: PowerInput;
  /** The one-sided (1 − level) lower bound of the drop, base − head (see EvalComparison.dropLowerBound). */
  dropBound?: (level: number) => number | undefined;
}

function sideStats(verdicts: Float64Array | undefined, passed: Float64Array | undefined, scores: Float64Array): SideStats {
  const side: SideStats = {};
  const rate = verdicts && passed ? passRateStats({ verdicts, passed }) : undefined;
  if (rate) {
    side.passRate = rate.passRate;
    side.passRateCi95 = rate.ci95;
  }
  // Compare pairs normalised scores, always in [0, 1]: the interval is clipped to it as a
  // run's own is to its score's range.
  const stats = meanStats(scores, [0, 1]);
  if (stats) {
    side.meanScore = stats.mean;
    if (stats.ci95) side.meanScoreCi95 = stats.ci95;
  }
  return side;
}

/** The paired t's one-sided bound of the drop: −(mean + t(1 − level, n − 1) · sd / √n). */
function meanDropBound(t: PairedTResult | undefined): RawEvalStats['dropBound'] {
  return (level) => (t && t.n >= 2 ? -(t.mean + (tQuantile(1 - level, t.n - 1) * t.sd) / Math.sqrt(t.n)) : undefined);
}

function differences(head: Float64Array, base: Float64Array): Float64Array {
  const out = new Float64Array(head.length);
  for (let i = 0; i < head.length; i++) out[i] = (head[i] as number) - (base[i] as number);
  return out;
}

function shares(passed: Float64Array, verdicts: Float64Array): Float64Array {
  const out = new Float64Array(passed.length);
  for (let i = 0; i < passed.length; i++) out[i] = (passed[i] as number) / (verdicts[i] as number);
  return out;
}

function countChanges(comparison: EvalComparison, base: Float64Array, head: Float64Array): void {
  for (let i = 0; i < base.length; i++) {
    const change = scoreChange(base[i] as number, head[i] as number);
    if (change === 'improved') comparison.improved++;
    else if (change === 'regressed') comparison.regressed++;
    else comparison.unchanged++;
  }
}

/**
 * Every per-eval statistic of one eval's pairs (Holm adjustment and the detectable drop happen
 * across evals later). Verdict evals with one repeat on both sides: McNemar and Newcombe. With
 * repeats, each row's pass share: Wilcoxon's signed-rank test and the paired t interval of the
 * share differences. Score evals: the same on normalised scores.
 */
export function evalStatistics(pairs: EvalPairs, options: { resamples: number; seed: number }): RawEvalStats {
  const verdict = pairs.hasVerdict && pairs.baseVerdicts.length > 0;
  const baseN = verdict ? pairs.baseVerdicts.values() : undefined;
  const headN = verdict ? pairs.headVerdicts.values() : undefined;
  const baseP = verdict ? pairs.basePassed.values() : undefined;
  const headP = verdict ? pairs.headPassed.values() : undefined;
  const baseS = pairs.baseScores.values();
  const headS = pairs.headScores.values();
  const comparison: EvalComparison = {
    name: pairs.name,
    kind: pairs.hasVerdict ? 'verdict' : 'score',
    pairs: baseN ? baseN.length : baseS.length,
    base: sideStats(baseN, baseP, baseS),
    head: sideStats(headN, headP, headS),
    improved: 0,
    regressed: 0,
    unchanged: 0,
  };
  const raw: RawEvalStats = { comparison };
  const bootstrap = { resamples: options.resamples, seed: options.seed };
  if (baseN && headN && baseP && headP) {
    const baseShare = shares(baseP, baseN);
    const headShare = shares(headP, headN);
    const diffs = differences(headShare, baseShare);
    const boot = bootstrapMeanInterval(diffs, bootstrap);
    if (!pairs.repeated) {
      const table = { both: 0, baseOnly: 0, headOnly: 0, neither: 0 };
      for (let i = 0; i < baseShare.length; i++) {
        const b = baseShare[i] === 1;
        const h = headShare[i] === 1;
        if (b && h) table.both++;
        else if (b) table.baseOnly++;
        else if (h) table.headOnly++;
        else table.neither++;
      }
      comparison.improved = table.headOnly;
      comparison.regressed = table.baseOnly;
      comparison.unchanged = table.both + table.neither;
      const test = mcnemarExact(table.baseOnly, table.headOnly);
      comparison.passRate = {
        estimate: (table.headOnly - table.baseOnly) / baseShare.length,
        test: 'mcnemar',
        ci95: newcombePairedInterval(table) as [number, number],
        ...(boot ? { bootstrapCi95: boot } : {}),
        pValue: test.pValue,
        pWorse: test.pWorse,
      };
      Object.assign(raw, { pValue: test.pValue, pWorse: test.pWorse, power: { test: 'mcnemar', n: baseShare.length, discordant: table.baseOnly + table.headOnly } });
      // Newcombe's interval at z = Φ⁻¹(1 − level): its upper end of head − base bounds the drop.
      raw.dropBound = (level) => {
        const interval = newcombePairedInterval(table, normalQuantile(1 - level));
        return interval && baseShare.length >= 2 ? -interval[1] : undefined;
      };
    } else {
      countChanges(comparison, baseShare, headShare);
      const t = pairedT(diffs);
      const rank = wilcoxonSignedRank(diffs);
      comparison.passRate = {
        estimate: t?.mean ?? 0,
        test: 'wilcoxon',
        // With one pair there is no spread to make an interval from: the widest one.
        ci95: t?.ci95 ? [Math.max(-1, t.ci95[0]), Math.min(1, t.ci95[1])] : [-1, 1],
        ...(boot ? { bootstrapCi95: boot } : {}),
        pValue: rank.pValue,
        pWorse: rank.pWorse,
        method: rank.method,
      };
      Object.assign(raw, { pValue: rank.pValue, pWorse: rank.pWorse, power: { test: 'mean', n: diffs.length, sd: t?.sd ?? 0, nonZero: rank.n } });
      raw.dropBound = meanDropBound(t);
    }
  }
  if (baseS.length > 0) {
    const diffs = differences(headS, baseS);
    const t = pairedT(diffs);
    const rank = wilcoxonSignedRank(diffs);
    const boot = bootstrapMeanInterval(diffs, { ...bootstrap, seed: bootstrap.seed + 1 });
    comparison.score = {
      estimate: t?.mean ?? 0,
      ...(t?.ci95 ? { ci95: t.ci95 } : {}),
      ...(boot ? { bootstrapCi95: boot } : {}),
      pValue: rank.pValue,
      pWorse: rank.pWorse,
      method: rank.method,
    };
    if (!baseN) {
      countChanges(comparison, baseS, headS);
      Object.assign(raw, { pValue: rank.pValue, pWorse: rank.pWorse, power: { test: 'mean', n: diffs.length, sd: t?.sd ?? 0, nonZero: rank.n } });
      raw.dropBound = meanDropBound(t);
    }
  }
  return raw;
}
