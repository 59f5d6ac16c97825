/** One line of a diff: kept (in both), removed (base only) or added (head only). */
export interface DiffLine {
  kind: ' ' | '-' | '+';
  text: string;
}

/** Past this many lines on a side, the texts are shown as wholly replaced rather than diffed. */
const MAX_LINES = 5000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * The lines of `before` and `after` in order, each kept, removed or added, from a longest
 * common subsequence (a table of n × m: prompts are short, and anything longer than MAX_LINES
 * is shown as removed then added). Written here rather than taken from `diff` so the CLI's
 * bundle needs no dependency for a few dozen lines.
 */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  // Common head and tail first: an edit usually touches a few lines in the middle.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head = a.slice(0, start).map((text): DiffLine => ({ kind: ' ', text }));
  const tail = a.slice(endA).map((text): DiffLine => ({ kind: ' ', text }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  return [...head, ...lcsLines(midA, midB), ...tail];
}

function lcsLines(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || n > MAX_LINES || m > MAX_LINES) {
    return [...a.map((text): DiffLine => ({ kind: '-', text })), ...b.map((text): DiffLine => ({ kind: '+', text }))];
  }
  // lengths[i * (m + 1) + j]: the LCS of a[i..] and b[j..].
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] = a[i] === b[j] ? (lengths[(i + 1) * width + j + 1] as number) + 1 : Math.max(lengths[(i + 1) * width + j] as number, lengths[i * width + j + 1] as number);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: ' ', text: a[i] as string });
      i++;
      j++;
    } else if ((lengths[(i + 1) * width + j] as number) >= (lengths[i * width + j + 1] as number)) {
      out.push({ kind: '-', text: a[i++] as string });
    } else {
      out.push({ kind: '+', text: b[j++] as string });
    }
  }
  while (i < n) out.push({ kind: '-', text: a[i++] as string });
  while (j < m) out.push({ kind: '+', text: b[j++] as string });
  return out;
}

/**
 * A unified diff (as `diff -u` writes it) of two texts, `context` unchanged lines around each
 * change; the empty string when they are equal.
 */
export function unifiedDiff(before: string, after: string, labels: { base: string; head: string }, context = 3): string {
  const lines = diffLines(before, after);
  if (lines.every((line) => line.kind === ' ')) return '';
  const out = [`--- ${labels.base}`, `+++ ${labels.head}`];
  // Where each line sits in base and head (1-based), to number the hunks.
  const positions: Array<{ a: number; b: number }> = [];
  let a = 1;
  let b = 1;
  for (const line of lines) {
    positions.push({ a, b });
    if (line.kind !== '+') a++;
    if (line.kind !== '-') b++;
  }
  let i = 0;
  while (i < lines.length) {
    const firstChange = lines.findIndex((line, k) => k >= i && line.kind !== ' ');
    if (firstChange < 0) break;
    const from = Math.max(i, firstChange - context);
    // The hunk runs on while the next change is within 2 × context kept lines.
    let to = firstChange;
    let k = firstChange;
    while (k < lines.length) {
      if (lines[k]?.kind !== ' ') {
        to = k;
        k++;
        continue;
      }
      let next = k;
      while (next < lines.length && lines[next]?.kind === ' ') next++;
      if (next < lines.length && next - k <= 2 * context) k = next;
      else break;
    }
    const end = Math.min(lines.length, to + 1 + context);
    const hunk = lines.slice(from, end);
    const at = positions[from] as { a: number; b: number };
    const countA = hunk.filter((line) => line.kind !== '+').length;
    const countB = hunk.filter((line) => line.kind !== '-').length;
    out.push(`@@ -${range(at.a, countA)} +${range(at.b, countB)} @@`);
    for (const line of hunk) out.push(`${line.kind}${line.text}`);
    i = end;
  }
  return `${out.join('\n')}\n`;
}

/** `start,count` as unified diffs write it: an empty range names the line before it. */
function range(start: number, count: number): string {
  if (count === 1) return String(start);
  return `${count === 0 ? start - 1 : start},${count}`;
}
