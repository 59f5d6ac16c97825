import type { Range } from 'vscode-languageserver';
import { tokenize, type Token } from './ts-tokens.js';

/** A scorer's name as the config's source writes it: the key (or shorthand, or method) in `scorers`. */
export interface Registration {
  name: string;
  range: Range;
}

const OPEN = new Set(['{', '(', '[']);
const CLOSE = new Set(['}', ')', ']']);
const MODIFIERS = new Set(['async', 'get', 'set']);

/**
 * Where the config registers its scorers: every key of the object given as `scorers` (`scorers: {
 * … }`, `'scorers': { … }`, `scorers: shared` or a shorthand `scorers` naming a `const` of the same
 * file, `scorers = { … }`), with the objects it spreads (`...base`) when the same file defines
 * them. Keys may be identifiers, quoted, shorthand or methods; a computed key (`[NAME]`) or an
 * imported object is left out (the loaded config still knows its name; it just has no place
 * here). Read from tokens, so a name in a comment or a string is never taken for a key.
 */
export function configRegistrations(text: string): Registration[] {
  const tokens = tokenize(text);
  const lines = lineStarts(text);
  const found: Registration[] = [];
  const seen = new Set<number>();

  const readObject = (open: number, visiting: Set<string>) => {
    if (seen.has(open)) return;
    seen.add(open);
    let depth = 0;
    let entryStart = true;
    for (let i = open + 1; i < tokens.length; i++) {
      const token = tokens[i] as Token;
      if (token.kind === 'punct' && CLOSE.has(token.value)) {
        if (depth === 0) return;
        depth--;
        continue;
      }
      if (depth === 0 && entryStart) {
        entryStart = false;
        const key = entryKey(tokens, i);
        if (key?.spread !== undefined) {
          const object = objectNamed(tokens, key.spread, visiting);
          if (object !== undefined) readObject(object, new Set([...visiting, key.spread]));
        } else if (key) found.push({ name: key.name, range: toRange(lines, key.token) });
      }
      if (token.kind === 'punct' && OPEN.has(token.value)) depth++;
      else if (depth === 0 && token.kind === 'punct' && token.value === ',') entryStart = true;
    }
  };

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if ((token.kind !== 'ident' && token.kind !== 'string') || token.value !== 'scorers') continue;
    const next = tokens[i + 1];
    const after = tokens[i + 2];
    if (next?.kind !== 'punct') continue;
    if ((next.value === ':' || next.value === '=') && after?.kind === 'punct' && after.value === '{') readObject(i + 2, new Set());
    else if (next.value === ':' && after?.kind === 'ident') {
      const object = objectNamed(tokens, after.value, new Set());
      if (object !== undefined) readObject(object, new Set([after.value]));
    } else if (token.kind === 'ident' && (next.value === ',' || next.value === '}') && isPropertyStart(tokens, i)) {
      const object = objectNamed(tokens, 'scorers', new Set());
      if (object !== undefined) readObject(object, new Set(['scorers']));
    }
  }
  return found.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/** The ranges at which the config registers `name`. */
export function registrationRanges(text: string, name: string): Range[] {
  return configRegistrations(text)
    .filter((registration) => registration.name === name)
    .map((registration) => registration.range);
}

/** What an object literal's entry starting at token `i` names: a key, or an object it spreads. */
function entryKey(tokens: Token[], i: number): { name: string; token: Token; spread?: undefined } | { spread: string } | undefined {
  let at = i;
  const first = tokens[at];
  if (first?.kind === 'punct' && first.value === '...') {
    const spread = tokens[at + 1];
    return spread?.kind === 'ident' ? { spread: spread.value } : undefined;
  }
  // `async name() {}`, `get name() {}`: the modifier is not the key (unless it is followed by `:`, `(`, `,`).
  if (first?.kind === 'ident' && MODIFIERS.has(first.value) && tokens[at + 1]?.kind === 'ident') at++;
  // A generator method `*name() {}`.
  if (first?.kind === 'punct' && first.value === '*') at++;
  const key = tokens[at];
  const next = tokens[at + 1];
  if (key === undefined || (key.kind !== 'ident' && key.kind !== 'string') || next?.kind !== 'punct') return undefined;
  if (next.value === ':' || next.value === '(' || (key.kind === 'ident' && (next.value === ',' || next.value === '}'))) {
    // A quoted key's range is the name inside its quotes.
    const token = key.kind === 'string' ? { ...key, start: key.start + 1, end: key.start + 1 + key.value.length } : key;
    return { name: key.value, token };
  }
  return undefined;
}

/** The `{` token of `const|let|var <name> = {` (also `<name> = {`, `: Type = {`), or undefined. */
function objectNamed(tokens: Token[], name: string, visiting: Set<string>): number | undefined {
  if (visiting.has(name)) return undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    const before = tokens[i - 1];
    if (token.kind !== 'ident' || token.value !== name || before?.kind !== 'ident' || !['const', 'let', 'var'].includes(before.value)) continue;
    // Past a type annotation to the `=`.
    let j = i + 1;
    if (tokens[j]?.value === ':') {
      let depth = 0;
      for (j++; j < tokens.length; j++) {
        const t = tokens[j] as Token;
        if (t.kind === 'punct' && (OPEN.has(t.value) || t.value === '<')) depth++;
        else if (t.kind === 'punct' && (CLOSE.has(t.value) || t.value === '>')) depth--;
        else if (depth === 0 && t.kind === 'punct' && t.value === '=') break;
      }
    }
    if (tokens[j]?.value === '=' && tokens[j + 1]?.kind === 'punct' && tokens[j + 1]?.value === '{') return j + 1;
  }
  return undefined;
}

/** Whether token `i` starts an entry of an object literal (it follows `{` or `,`). */
function isPropertyStart(tokens: Token[], i: number): boolean {
  const before = tokens[i - 1];
  return before?.kind === 'punct' && (before.value === '{' || before.value === ',');
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function toRange(lines: number[], token: Token): Range {
  const position = (offset: number) => {
    let low = 0;
    let high = lines.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((lines[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: offset - (lines[low] ?? 0) };
  };
  return { start: position(token.start), end: position(token.end) };
}
