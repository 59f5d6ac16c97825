import type { Range } from 'vscode-languageserver';

/** Characters that end a bare word in YAML, JSON and MDX expressions (a key's colon included). */
const WORD_END = /[\s,\]}[{:()'"<>]/;

/**
 * The range an error at a 1-based line:column covers in `text`: the quoted string or word that
 * starts there (`exact_mach` in `evals: [exact_mach, x]`, `"scorer"` in JSON), the line's text
 * when only the line is known, the first line when neither is.
 */
export function tokenRange(text: string, line: number | undefined, column: number | undefined): Range {
  const lines = text.split('\n');
  if (line === undefined) return lineRange(lines, 0);
  const index = Math.min(Math.max(line - 1, 0), Math.max(lines.length - 1, 0));
  if (column === undefined) return lineRange(lines, index);
  const lineText = (lines[index] ?? '').replace(/\r$/, '');
  const start = Math.min(Math.max(column - 1, 0), lineText.length);
  return { start: { line: index, character: start }, end: { line: index, character: tokenEnd(lineText, start) } };
}

function tokenEnd(lineText: string, start: number): number {
  const first = lineText[start];
  if (first === '"' || first === "'") {
    for (let i = start + 1; i < lineText.length; i++) {
      if (lineText[i] === '\\') i++;
      else if (lineText[i] === first) return i + 1;
    }
    return lineText.length;
  }
  let end = start;
  while (end < lineText.length && !WORD_END.test(lineText[end] ?? ' ')) end++;
  // A position on punctuation (a bracket, a `<`): cover that one character, never nothing.
  return end === start ? Math.min(start + 1, lineText.length) : end;
}

function lineRange(lines: string[], index: number): Range {
  const lineText = (lines[index] ?? '').replace(/\r$/, '');
  const indent = lineText.length - lineText.trimStart().length;
  return { start: { line: index, character: indent }, end: { line: index, character: lineText.length } };
}

/** The word around a 0-based position (letters, digits, `_ - . /`), with its range. */
export function wordAt(text: string, line: number, character: number): { word: string; range: Range } | undefined {
  const lineText = (text.split('\n')[line] ?? '').replace(/\r$/, '');
  const isWord = (c: string | undefined) => c !== undefined && /[\w.\-/@]/.test(c);
  let start = character;
  while (start > 0 && isWord(lineText[start - 1])) start--;
  let end = character;
  while (end < lineText.length && isWord(lineText[end])) end++;
  if (start === end) return undefined;
  return { word: lineText.slice(start, end), range: { start: { line, character: start }, end: { line, character: end } } };
}
