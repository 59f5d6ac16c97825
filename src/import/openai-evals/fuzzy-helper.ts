/**
 * rapidfuzz's `fuzz.ratio` (the normalised Indel similarity, 2·LCS / (len a + len b)) as a
 * config-file helper, scaled to 0..1: OpenAI's fuzzy_match grader uses rapidfuzz.
 */
export const FUZZY_RATIO_HELPER = `/** rapidfuzz fuzz.ratio / 100: 2 * longest common subsequence / (a.length + b.length). */
function fuzzyRatio(a: string, b: string): number {
  if (a.length + b.length === 0) return 1;
  let previous = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = a[i - 1] === b[j - 1] ? (previous[j - 1] ?? 0) + 1 : Math.max(previous[j] ?? 0, row[j - 1] ?? 0);
    }
    previous = row;
  }
  return (2 * (previous[b.length] ?? 0)) / (a.length + b.length);
}`;
