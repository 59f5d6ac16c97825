/**
 * Fleiss' kappa (Fleiss 1971) for items each rated by the same number m ≥ 2 of raters:
 * `ratings[i][j]` is how many raters put item i in category j. κ = (P̄ − P̄ₑ)/(1 − P̄ₑ), with P̄
 * the mean share of agreeing rater pairs per item and P̄ₑ = Σ pⱼ² from the category shares.
 * Undefined with no items, unequal rater counts, fewer than two raters, or P̄ₑ = 1.
 */
export function fleissKappa(ratings: readonly (readonly number[])[]): number | undefined {
  const items = ratings.length;
  if (items === 0) return undefined;
  const m = sum(ratings[0] as readonly number[]);
  if (m < 2 || ratings.some((row) => sum(row) !== m)) return undefined;
  const k = (ratings[0] as readonly number[]).length;
  const totals = new Array<number>(k).fill(0);
  let agreement = 0;
  for (const row of ratings) {
    let pairs = 0;
    row.forEach((count, j) => {
      totals[j] = (totals[j] as number) + count;
      pairs += count * (count - 1);
    });
    agreement += pairs / (m * (m - 1));
  }
  const meanAgreement = agreement / items;
  let chance = 0;
  for (const total of totals) chance += (total / (items * m)) ** 2;
  if (chance >= 1) return undefined;
  return (meanAgreement - chance) / (1 - chance);
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
