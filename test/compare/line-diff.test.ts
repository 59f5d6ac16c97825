import { applyPatch, diffArrays } from 'diff';
import { describe, expect, it } from 'vitest';
import { diffLines, unifiedDiff } from '../../src/compare/line-diff.js';

const labels = { base: 'a/p.mdx', head: 'b/p.mdx' };

/** A small seeded generator, so the random cases are the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function edit(lines: string[], next: () => number): string[] {
  const out = [...lines];
  const edits = 1 + Math.floor(next() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * (out.length + 1));
    const kind = next();
    if (kind < 0.33) out.splice(at, 0, `new ${Math.floor(next() * 5)}`);
    else if (kind < 0.66) out.splice(at, 1);
    else out.splice(at, 1, `changed ${Math.floor(next() * 5)}`);
  }
  return out;
}

describe('unifiedDiff', () => {
  it('writes hunks as diff -u does, with 3 lines of context and empty ranges before their line', () => {
    const base = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
    expect(unifiedDiff(base, base.replace('e\n', 'E\n'), labels)).toBe('--- a/p.mdx\n+++ b/p.mdx\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n');
    expect(unifiedDiff('', 'x\n', { base: '/dev/null', head: 'b/p.mdx' })).toBe('--- /dev/null\n+++ b/p.mdx\n@@ -0,0 +1 @@\n+x\n');
    expect(unifiedDiff('x\ny\n', 'x\n', labels)).toBe('--- a/p.mdx\n+++ b/p.mdx\n@@ -1,2 +1 @@\n x\n-y\n');
    // two changes 9 lines apart are two hunks; 6 apart, one
    const far = unifiedDiff(base + 'k\nl\n', 'A\nb\nc\nd\ne\nf\ng\nh\ni\nj\nK\nl\n', labels);
    expect(far.match(/^@@/gm)).toHaveLength(2);
    expect(unifiedDiff(base, 'A\nb\nc\nd\ne\nf\nG\nh\ni\nj\n', labels).match(/^@@/gm)).toHaveLength(1);
    expect(unifiedDiff(base, base, labels)).toBe('');
  });

  it('is a patch that turns base into head, as short as the diff package finds, on 300 random edits', () => {
    const next = random(7);
    for (let n = 0; n < 300; n++) {
      const base = Array.from({ length: Math.floor(next() * 25) }, () => `line ${Math.floor(next() * 8)}`);
      const head = edit(base, next);
      const before = base.map((l) => `${l}\n`).join('');
      const after = head.map((l) => `${l}\n`).join('');
      const patch = unifiedDiff(before, after, labels, Math.floor(next() * 4));
      expect(before === after ? '' : applyPatch(before, patch)).toBe(before === after ? patch : after);
      const changed = diffLines(before, after).filter((line) => line.kind !== ' ').length;
      const reference = diffArrays(base, head).filter((part) => part.added || part.removed).reduce((sum, part) => sum + part.count, 0);
      expect(changed).toBe(reference);
    }
  });
});
