/** Ranks from 1, ties given the mean of the ranks they span (as Spearman's rho needs). */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((value, i) => [value, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && (order[end + 1] as readonly [number, number])[0] === (order[start] as readonly [number, number])[0]) end++;
    const rank = (start + end) / 2 + 1;
    for (let i = start; i <= end; i++) ranks[(order[i] as readonly [number, number])[1]] = rank;
    start = end + 1;
  }
  return ranks;
}

/** Pearson's correlation; undefined below two pairs or when either side does not vary. */
export function pearson(a: readonly number[], b: readonly number[]): number | undefined {
  const n = Math.min(a.length, b.length);
  if (n < 2) return undefined;
  let meanA = 0;
  let meanB = 0;
  for (let i = 0; i < n; i++) {
    meanA += a[i] as number;
    meanB += b[i] as number;
  }
  meanA /= n;
  meanB /= n;
  let cross = 0;
  let squaresA = 0;
  let squaresB = 0;
  for (let i = 0; i < n; i++) {
    const da = (a[i] as number) - meanA;
    const db = (b[i] as number) - meanB;
    cross += da * db;
    squaresA += da * da;
    squaresB += db * db;
  }
  if (squaresA === 0 || squaresB === 0) return undefined;
  return cross / Math.sqrt(squaresA * squaresB);
}

/** Spearman's rho: Pearson's correlation of the average ranks. */
export function spearman(a: readonly number[], b: readonly number[]): number | undefined {
  return pearson(averageRanks(a), averageRanks(b));
}

/** Mean absolute difference; undefined with no pairs. */
export function meanAbsoluteDifference(a: readonly number[], b: readonly number[]): number | undefined {
  const n = Math.min(a.length, b.length);
  if (n === 0) return undefined;
  let total = 0;
  for (let i = 0; i < n; i++) total += Math.abs((a[i] as number) - (b[i] as number));
  return total / n;
}
