import { normalCdf } from '../../scoring/special-functions.js';

export interface SignedRankResult {
  /** Non-zero differences ranked (zeros are dropped, as Wilcoxon proposed). */
  n: number;
  /** Sum of the ranks of positive differences (head above base). */
  statistic: number;
  /** Two-sided p-value. */
  pValue: number;
  /** One-sided p-value for "head is worse" (differences lean negative). */
  pWorse: number;
  /** `exact` below 50 untied non-zero differences, else the normal approximation. */
  method: 'exact' | 'normal';
}

/** Differences closer than this are the same value (means of repeats round differently). */
const GRID = 1e12;
const EXACT_LIMIT = 50;

/**
 * Wilcoxon's signed-rank test of paired differences (head − base). Exact null distribution
 * (all 2^n sign patterns, counted by dynamic programming) for fewer than 50 non-zero
 * differences without ties; otherwise the normal approximation with the tie correction of the
 * variance and a continuity correction of ½, as statistics packages compute it.
 */
export function wilcoxonSignedRank(differences: ArrayLike<number>): SignedRankResult {
  // The non-zero sizes |d|, and those of the positive differences, each sorted natively (typed
  // arrays, no comparator: a million differences sort in ~0.1 s); walking both gives each tie
  // group's mid-rank and how many of its members are positive.
  const sizes = new Float64Array(differences.length);
  const positives = new Float64Array(differences.length);
  let n = 0;
  let p = 0;
  for (let i = 0; i < differences.length; i++) {
    const d = Math.round((differences[i] as number) * GRID) / GRID;
    if (d === 0) continue;
    sizes[n++] = Math.abs(d);
    if (d > 0) positives[p++] = d;
  }
  if (n === 0) return { n: 0, statistic: 0, pValue: 1, pWorse: 1, method: 'exact' };
  const sorted = sizes.subarray(0, n).sort();
  const sortedPositives = positives.subarray(0, p).sort();
  let statistic = 0;
  let tieTerm = 0;
  let next = 0;
  for (let start = 0; start < n; ) {
    let end = start + 1;
    const size = sorted[start] as number;
    while (end < n && sorted[end] === size) end++;
    const rank = (start + 1 + end) / 2;
    const ties = end - start;
    tieTerm += ties ** 3 - ties;
    while (next < p && sortedPositives[next] === size) {
      statistic += rank;
      next++;
    }
    start = end;
  }
  if (n < EXACT_LIMIT && tieTerm === 0) return exact(n, statistic);
  const mean = (n * (n + 1)) / 4;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48;
  if (variance <= 0) return { n, statistic, pValue: 1, pWorse: 1, method: 'normal' };
  const sd = Math.sqrt(variance);
  const shift = statistic - mean;
  const z = (shift - Math.sign(shift) * 0.5) / sd;
  const pValue = Math.min(1, 2 * Math.min(normalCdf(z), 1 - normalCdf(z)));
  const pWorse = normalCdf((shift + 0.5) / sd);
  return { n, statistic, pValue, pWorse, method: 'normal' };
}

/** Counts of sign patterns by rank sum: counts[s] = patterns of ranks 1..n summing to s. */
function rankSumCounts(n: number): number[] {
  const max = (n * (n + 1)) / 2;
  const counts = new Array<number>(max + 1).fill(0);
  counts[0] = 1;
  for (let rank = 1; rank <= n; rank++) {
    for (let s = max; s >= rank; s--) counts[s] = (counts[s] as number) + (counts[s - rank] as number);
  }
  return counts;
}

function exact(n: number, statistic: number): SignedRankResult {
  const counts = rankSumCounts(n);
  const total = 2 ** n;
  let below = 0;
  let above = 0;
  for (let s = 0; s < counts.length; s++) {
    if (s <= statistic) below += counts[s] as number;
    if (s >= statistic) above += counts[s] as number;
  }
  const pWorse = below / total;
  return { n, statistic, pValue: Math.min(1, (2 * Math.min(below, above)) / total), pWorse, method: 'exact' };
}
