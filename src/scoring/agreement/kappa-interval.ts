import { tQuantile } from '../t-distribution.js';
import type { KappaWeights } from './kappa.js';

/**
 * 95% interval of Cohen's kappa (weighted or not) from its large-sample variance (Fleiss, Cohen
 * and Everitt 1969) with a small-sample correction: the variance and the centre come from the
 * table with pseudo-counts spread evenly over its cells (as Agresti and Caffo add two successes
 * and two failures to a proportion), and the half-width uses t(n − 1) rather than z. The
 * observed kappa is always inside the interval, which is clipped to [−1, 1].
 *
 * Why not the bootstrap it replaces: a handful of rows that agree perfectly resample into
 * perfect agreement every time, a zero-width `[1, 1]`, and at 20 rows it covered 58.5%. Why not
 * the plain variance: it is 0 at perfect agreement too, and it covers 10% at 5 rows. The
 * pseudo-count total was chosen by simulation (4 for two categories or weighted kappa, 2 for
 * nominal kappa over three or more categories, where 4 pulls high kappas down too far); the
 * coverage over rows 5–200, kappa 0–0.95, balanced and skewed margins is checked in
 * test/scoring/kappa-coverage.test.ts, its figures in docs/statistics.md.
 *
 * `counts[i][j]`: items the first rater put in category i and the second in j. Categories
 * neither rater used are left out (they change neither kappa nor, without them, its variance).
 * Undefined under two items.
 */
export function kappaInterval(counts: readonly (readonly number[])[], weights: KappaWeights = 'none'): [number, number] | undefined {
  const used = usedCategories(counts);
  const table = used.map((i) => used.map((j) => counts[i]?.[j] ?? 0));
  const k = table.length;
  const n = table.reduce((sum, row) => sum + row.reduce((a, b) => a + b, 0), 0);
  if (n < 2 || k < 2) return undefined;
  const w = agreementWeights(k, weights);
  const observed = kappaAndVariance(table, n, w).kappa;
  const pseudo = k === 2 || weights !== 'none' ? 4 : 2;
  const adjusted = table.map((row) => row.map((count) => count + pseudo / (k * k)));
  const { kappa, variance } = kappaAndVariance(adjusted, n + pseudo, w);
  const half = tQuantile(0.975, n - 1) * Math.sqrt(Math.max(variance, 0));
  return [Math.max(-1, Math.min(observed, kappa - half)), Math.min(1, Math.max(observed, kappa + half))];
}

/** Categories at least one rater used, in their order. */
function usedCategories(counts: readonly (readonly number[])[]): number[] {
  const used: number[] = [];
  for (let i = 0; i < counts.length; i++) {
    const inRow = (counts[i] ?? []).some((c) => c > 0);
    const inColumn = counts.some((row) => (row[i] ?? 0) > 0);
    if (inRow || inColumn) used.push(i);
  }
  return used;
}

/** Agreement weights: 1 on the diagonal, 0 (nominal) or 1 − distance (linear, quadratic) off it. */
function agreementWeights(k: number, weights: KappaWeights): number[][] {
  return Array.from({ length: k }, (_, i) =>
    Array.from({ length: k }, (_, j) => {
      if (i === j) return 1;
      if (weights === 'none') return 0;
      const distance = Math.abs(i - j) / (k - 1);
      return weights === 'linear' ? 1 - distance : 1 - distance * distance;
    }),
  );
}

/**
 * Kappa and its large-sample variance (Fleiss, Cohen and Everitt 1969, eq. 13, the general
 * weighted form; with identity weights it is Cohen's unweighted kappa):
 * var = [Σᵢⱼ pᵢⱼ (wᵢⱼ − (w̄ᵢ. + w̄.ⱼ)(1 − κ))² − (κ − pₑ(1 − κ))²] / (n (1 − pₑ)²),
 * with w̄ᵢ. = Σⱼ p.ⱼ wᵢⱼ and w̄.ⱼ = Σᵢ pᵢ. wᵢⱼ.
 */
function kappaAndVariance(counts: readonly (readonly number[])[], n: number, w: readonly (readonly number[])[]): { kappa: number; variance: number } {
  const k = counts.length;
  const p = counts.map((row) => row.map((count) => count / n));
  const rows = p.map((row) => row.reduce((a, b) => a + b, 0));
  const columns = p[0]?.map((_, j) => p.reduce((a, row) => a + (row[j] ?? 0), 0)) ?? [];
  let po = 0;
  let pe = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      po += (w[i]?.[j] ?? 0) * (p[i]?.[j] ?? 0);
      pe += (w[i]?.[j] ?? 0) * (rows[i] ?? 0) * (columns[j] ?? 0);
    }
  }
  const kappa = (po - pe) / (1 - pe);
  const rowMean = (i: number) => columns.reduce((a, c, j) => a + c * (w[i]?.[j] ?? 0), 0);
  const columnMean = (j: number) => rows.reduce((a, r, i) => a + r * (w[i]?.[j] ?? 0), 0);
  let sum = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const term = (w[i]?.[j] ?? 0) - (rowMean(i) + columnMean(j)) * (1 - kappa);
      sum += (p[i]?.[j] ?? 0) * term * term;
    }
  }
  return { kappa, variance: (sum - (kappa - pe * (1 - kappa)) ** 2) / (n * (1 - pe) ** 2) };
}
