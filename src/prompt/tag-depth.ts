/**
 * Tags nested deeper than this are refused before the MDX parser sees them. The parser's time
 * and memory grow far faster than the nesting (50,000 nested `<If>` took 10–24 s and ~1 GB
 * before it ran out of stack); no real prompt comes near this.
 */
export const MAX_TAG_DEPTH = 256;

const isNameStart = (ch: number): boolean => (ch >= 0x41 && ch <= 0x5a) || (ch >= 0x61 && ch <= 0x7a) || ch === 0x5f || ch === 0x24;

/**
 * Offset of the first JSX tag (or fragment) that opens level `limit + 1`, or undefined when
 * the body stays within `limit`. The same linear pre-scan as `jsonTooDeepAt` for dataset rows:
 * it only needs to be right about nesting that is far too deep, so it reads tags loosely —
 * `<Name …>` opens (unless it ends in `/>`), `</…>` closes, `<>` opens a fragment — and skips
 * fenced and inline code, where `<` is text. Attribute values (`"…"`, `{…}`) may hold `>`.
 */
export function tagsTooDeepAt(source: string, limit: number, from = 0): number | undefined {
  let depth = 0;
  let lineStart = true;
  let fence: string | undefined;
  for (let i = from; i < source.length; i++) {
    const ch = source.charCodeAt(i);
    if (ch === 0x0a) {
      lineStart = true;
      continue;
    }
    if (lineStart) {
      lineStart = false;
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(source.slice(i, i + 64));
      if (marker?.[1] && (fence === undefined || marker[1].startsWith(fence))) {
        fence = fence === undefined ? marker[1] : undefined;
        i = source.indexOf('\n', i) - 1;
        if (i < 0) return undefined;
        continue;
      }
    }
    if (fence !== undefined) continue;
    if (ch === 0x60) {
      // Inline code runs to the next backtick on the same line.
      const close = source.indexOf('`', i + 1);
      const newline = source.indexOf('\n', i + 1);
      if (close !== -1 && (newline === -1 || close < newline)) i = close;
      continue;
    }
    if (ch !== 0x3c) continue;
    const next = source.charCodeAt(i + 1);
    if (next === 0x2f) {
      depth = Math.max(0, depth - 1);
    } else if (next === 0x3e) {
      if (++depth > limit) return i;
    } else if (isNameStart(next)) {
      const end = tagEnd(source, i + 1);
      if (source.charCodeAt(end - 1) !== 0x2f && ++depth > limit) return i;
      i = end;
    }
  }
  return undefined;
}

/** Offset of the `>` that ends the tag starting before `from`, skipping quoted and braced values. */
function tagEnd(source: string, from: number): number {
  let braces = 0;
  let quote = 0;
  for (let i = from; i < source.length; i++) {
    const ch = source.charCodeAt(i);
    if (quote !== 0) {
      if (ch === quote) quote = 0;
    } else if (ch === 0x22 || ch === 0x27) {
      quote = ch;
    } else if (ch === 0x7b) {
      braces++;
    } else if (ch === 0x7d) {
      braces = Math.max(0, braces - 1);
    } else if (ch === 0x3e && braces === 0) {
      return i;
    }
  }
  return source.length;
}
