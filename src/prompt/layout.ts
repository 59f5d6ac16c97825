/**
 * Line-aware helpers so that tags written on their own lines behave like block statements in
 * a template language: the tag lines vanish, the content keeps its own lines, and indentation
 * added for readability inside tags is removed.
 */

const isBlank = (text: string): boolean => /^[ \t\r]*$/.test(text);

/** The span a tag occupies when it stands alone on its line(s): from line start through the newline. */
export interface LineSpan {
  start: number;
  end: number;
  /** Column of the tag (its indentation width). */
  indent: number;
  /** A newline after the tag was consumed (so block output should end with one). */
  newline: boolean;
}

export function wholeLineSpan(source: string, start: number, end: number, floor: number, ceiling: number): LineSpan | undefined {
  const lineStart = Math.max(source.lastIndexOf('\n', start - 1) + 1, floor);
  if (!isBlank(source.slice(lineStart, start))) return undefined;
  if (lineStart === floor && floor > 0 && source[floor - 1] !== '\n') return undefined;
  const newlineAt = source.indexOf('\n', end);
  const lineEnd = newlineAt === -1 || newlineAt >= ceiling ? ceiling : newlineAt;
  if (!isBlank(source.slice(end, lineEnd))) return undefined;
  const newline = lineEnd === newlineAt;
  if (!newline && lineEnd !== source.length) return undefined;
  return { start: lineStart, end: newline ? lineEnd + 1 : lineEnd, indent: start - lineStart, newline };
}

/** Inner range of a block tag without the rest of the opening line and the closing tag's line. */
export function blockInner(source: string, innerStart: number, innerEnd: number): { start: number; end: number } {
  let start = innerStart;
  const newline = source.indexOf('\n', start);
  if (newline !== -1 && newline < innerEnd && isBlank(source.slice(start, newline))) start = newline + 1;
  let end = innerEnd;
  const lastNewline = source.lastIndexOf('\n', end - 1);
  if (lastNewline + 1 >= start && lastNewline !== -1 && isBlank(source.slice(lastNewline + 1, end))) end = lastNewline + 1;
  return start <= end ? { start, end } : { start, end: start };
}

/** Smallest indentation of the non-blank lines that start inside [start, end). */
export function minIndent(source: string, start: number, end: number): number {
  let min = Infinity;
  let lineStart = start === 0 || source[start - 1] === '\n' ? start : source.indexOf('\n', start) + 1;
  if (lineStart === 0 && start !== 0) return 0;
  while (lineStart < end) {
    let i = lineStart;
    while (i < end && (source[i] === ' ' || source[i] === '\t')) i++;
    if (i < end && source[i] !== '\n' && source[i] !== '\r') min = Math.min(min, i - lineStart);
    const next = source.indexOf('\n', lineStart);
    if (next === -1) break;
    lineStart = next + 1;
  }
  return min === Infinity ? 0 : min;
}

/** Removes up to `amount` spaces/tabs at each line start within a verbatim slice of the source. */
export function dedentSlice(source: string, start: number, end: number, amount: number): string {
  const text = source.slice(start, end);
  if (amount <= 0) return text;
  const atLineStart = start === 0 || source[start - 1] === '\n';
  const pattern = new RegExp(`(^|\\n)[ \\t]{1,${amount}}`, 'g');
  return text.replace(pattern, (match, lead: string, index: number) => (index === 0 && lead === '' && !atLineStart ? match : lead));
}

/**
 * Rendered content made into a block: leading blank lines and trailing whitespace go, and every
 * line loses up to the first line's indentation. Trimming alone would strip the first line's
 * indentation but keep the others', turning a list into a nested one.
 */
export function normalizeBlock(text: string): string {
  const body = text.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd();
  const first = /^[ \t]*/.exec(body)?.[0].length ?? 0;
  if (first === 0) return body;
  return body.replace(new RegExp(`(^|\\n)[ \\t]{1,${first}}`, 'g'), '$1');
}

/** Column of `offset` when only spaces and tabs precede it on its line. */
export function lineIndent(source: string, offset: number): number | undefined {
  const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
  return isBlank(source.slice(lineStart, offset)) ? offset - lineStart : undefined;
}

/** Indents every line but the first (which follows existing text) by `amount` spaces. */
export function indentLines(text: string, amount: number): string {
  if (amount <= 0) return text;
  const pad = ' '.repeat(amount);
  return text.replace(/\n(?=[^\r\n])/g, `\n${pad}`);
}
