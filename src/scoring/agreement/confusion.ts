/**
 * Counts of paired verdicts: `counts[i][j]` is how many items the first rater put in category
 * `categories[i]` and the second in `categories[j]`. Categories are in their natural order
 * (false before true, a score schema's category order, numbers ascending), which the weighted
 * kappas rely on.
 */
export interface Confusion {
  categories: string[];
  counts: number[][];
  /** Items behind the matrix. */
  n: number;
}

/** Builds the matrix of `pairs` over `categories`; a value outside them is a bug of the caller. */
export function confusionOf(pairs: ReadonlyArray<readonly [string, string]>, categories: readonly string[]): Confusion {
  const position = new Map(categories.map((category, i) => [category, i]));
  const counts = categories.map(() => categories.map(() => 0));
  for (const [a, b] of pairs) {
    const i = position.get(a);
    const j = position.get(b);
    if (i === undefined || j === undefined) throw new RangeError(`verdict outside the categories: ${a} / ${b}`);
    (counts[i] as number[])[j] = ((counts[i] as number[])[j] as number) + 1;
  }
  return { categories: [...categories], counts, n: pairs.length };
}
