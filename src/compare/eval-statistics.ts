import { meanStats, wilsonInterval } from '../scoring/statistics.js';
import {
  bootstrapMeanInterval,
  mcnemarExact,
  minDetectableMean,
  minDetectablePassRate,
  newcombePairedInterval,
  pairedT,
  wilcoxonSignedRank,
} from './stats/index.js';
import { scoreChange, type EvalPairs } from './eval-pairs.js';
import type { EvalComparison, SideStats } from './types.js';

export interface RawEvalStats {
  comparison: EvalComparison;
  /** Two-sided and one-sided ("head worse") p-values of the eval's test, before Holm. */
  pValue?: number;
  pWorse?: number;
}

function sideStats(verdicts: Float64Array | undefined, scores: Float64Array): SideStats {
  const side: SideStats = {};
  if (verdicts && verdicts.length > 0) {
    let passed = 0;
    for (const v of verdicts) passed += v;
    side.passRate = passed / verdicts.length;
    const ci = wilsonInterval(passed, verdicts.length);
    if (ci) side.passRateCi95 = ci;
  }
  // Compare pairs normalised scores, always in [0, 1]: the interval is clipped to it as a
  // run's own is to its score's range.
  const stats = meanStats(Array.from(scores), [0, 1]);
  if (stats) {
    side.meanScore = stats.mean;
    if (stats.ci95) side.meanScoreCi95 = stats.ci95;
  }
  return side;
}

function differences(head: Float64Array, base: Float64Array): Float64Array {
  const out = new Float64Array(head.length);
  for (let i = 0; i < head.length; i++) out[i] = (head[i] as number) - (base[i] as number);
  return out;
}

/** Every per-eval statistic of one eval's pairs (Holm adjustment happens across evals later). */
export function evalStatistics(pairs: EvalPairs, options: { resamples: number; seed: number; alpha: number }): RawEvalStats {
  const verdict = pairs.hasVerdict && pairs.baseVerdicts.length > 0;
  const baseV = verdict ? pairs.baseVerdicts.values() : undefined;
  const headV = verdict ? pairs.headVerdicts.values() : undefined;
  const baseS = pairs.baseScores.values();
  const headS = pairs.headScores.values();
  const comparison: EvalComparison = {
    name: pairs.name,
    kind: pairs.hasVerdict ? 'verdict' : 'score',
    pairs: verdict ? (baseV as Float64Array).length : baseS.length,
    base: sideStats(baseV, baseS),
    head: sideStats(headV, headS),
    improved: 0,
    regressed: 0,
    unchanged: 0,
  };
  let pValue: number | undefined;
  let pWorse: number | undefined;
  const bootstrap = { resamples: options.resamples, seed: options.seed };
  if (baseV && headV) {
    const table = { both: 0, baseOnly: 0, headOnly: 0, neither: 0 };
    for (let i = 0; i < baseV.length; i++) {
      const b = baseV[i] === 1;
      const h = headV[i] === 1;
      if (b && h) table.both++;
      else if (b) table.baseOnly++;
      else if (h) table.headOnly++;
      else table.neither++;
    }
    comparison.improved = table.headOnly;
    comparison.regressed = table.baseOnly;
    comparison.unchanged = table.both + table.neither;
    const test = mcnemarExact(table.baseOnly, table.headOnly);
    pValue = test.pValue;
    pWorse = test.pWorse;
    const boot = bootstrapMeanInterval(differences(headV, baseV), bootstrap);
    comparison.passRate = {
      estimate: (table.headOnly - table.baseOnly) / baseV.length,
      ci95: newcombePairedInterval(table) as [number, number],
      ...(boot ? { bootstrapCi95: boot } : {}),
      pValue: test.pValue,
      pWorse: test.pWorse,
    };
    const mdd = minDetectablePassRate(baseV.length, table.baseOnly + table.headOnly, options.alpha);
    if (mdd !== undefined) comparison.minDetectable = mdd;
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
    if (!baseV) {
      for (let i = 0; i < baseS.length; i++) {
        const change = scoreChange(baseS[i] as number, headS[i] as number);
        if (change === 'improved') comparison.improved++;
        else if (change === 'regressed') comparison.regressed++;
        else comparison.unchanged++;
      }
      pValue = rank.pValue;
      pWorse = rank.pWorse;
      const mdd = minDetectableMean(diffs.length, t?.sd ?? 0, options.alpha);
      if (mdd !== undefined) comparison.minDetectable = mdd;
    }
  }
  return { comparison, ...(pValue === undefined ? {} : { pValue }), ...(pWorse === undefined ? {} : { pWorse }) };
}
