/** Longest input (in words) for which a word diff is computed; beyond it both texts are shown whole. */
const MAX_WORDS = 2000;

/**
 * A word-level diff of two texts, git's `--word-diff=plain` style: `[-removed-]{+added+}`.
 * Longest common subsequence over words (and the spaces between them); undefined when the texts
 * are too long for the quadratic table to be worth it.
 */
export function wordDiff(before: string, after: string): string | undefined {
  const a = before.split(/(\s+)/).filter((t) => t !== '');
  const b = after.split(/(\s+)/).filter((t) => t !== '');
  if (a.length > MAX_WORDS || b.length > MAX_WORDS) return undefined;
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? (lcs[(i + 1) * width + j + 1] as number) + 1 : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
    }
  }
  let out = '';
  let removed = '';
  let added = '';
  const flush = (): void => {
    if (removed) out += `[-${removed}-]`;
    if (added) out += `{+${added}+}`;
    removed = '';
    added = '';
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      flush();
      out += a[i];
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || (lcs[i * width + j + 1] as number) >= (lcs[(i + 1) * width + j] as number))) {
      added += b[j];
      j++;
    } else {
      removed += a[i];
      i++;
    }
  }
  flush();
  return out;
}
