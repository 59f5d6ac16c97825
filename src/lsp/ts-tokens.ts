/** One token of JavaScript/TypeScript source, by its offsets in the text. */
export interface Token {
  kind: 'ident' | 'string' | 'template' | 'number' | 'regex' | 'punct';
  /** An identifier's name, a string's value (escapes kept as written), a punctuator's text. */
  value: string;
  start: number;
  end: number;
}

const IDENT_START = /[A-Za-z_$\u00a0-\uffff]/;
const IDENT_PART = /[\w$\u00a0-\uffff]/;
// A `/` after one of these (or at the start) begins a regular expression, not a division.
const BEFORE_REGEX = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);
const PUNCTUATORS = ['...', '=>', '?.', '??', '&&', '||', '==', '!=', '<=', '>='];

/**
 * The tokens of a config file, enough to read its object literals: comments and whitespace
 * skipped, strings, template literals (their `${…}` parts lexed as code) and regular expressions
 * taken whole, so that a name inside any of them is never mistaken for a key. Not a parser: it
 * never fails, whatever the text (an unfinished buffer lexes to its end).
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  // Open `${` of template literals: the brace depth at which each resumes its template.
  const templates: number[] = [];
  let depth = 0;
  let i = 0;
  const push = (kind: Token['kind'], value: string, start: number) => tokens.push({ kind, value, start, end: i });

  /** Scans template text from `i` (just past a backquote or a closing `}`) to its end or its next `${`. */
  const template = (start: number) => {
    while (i < text.length && text[i] !== '`') {
      if (text[i] === '\\') i += 2;
      else if (text[i] === '$' && text[i + 1] === '{') {
        i += 2;
        push('template', '', start);
        templates.push(depth);
        depth++;
        return;
      } else i++;
    }
    i++;
    push('template', '', start);
  };

  while (i < text.length) {
    const c = text[i] ?? '';
    const start = i;
    if (/\s/.test(c)) i++;
    else if (c === '/' && text[i + 1] === '/') while (i < text.length && text[i] !== '\n') i++;
    else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) === -1 ? text.length : text.indexOf('*/', i + 2) + 2;
    else if (c === '"' || c === "'") {
      i++;
      while (i < text.length && text[i] !== c && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      const value = text.slice(start + 1, Math.min(i, text.length));
      i++;
      push('string', value, start);
    } else if (c === '`') {
      i++;
      template(start);
    } else if (c === '}' && templates.length > 0 && templates[templates.length - 1] === depth - 1) {
      templates.pop();
      depth--;
      i++;
      template(start);
    } else if (IDENT_START.test(c)) {
      while (i < text.length && IDENT_PART.test(text[i] ?? '')) i++;
      push('ident', text.slice(start, i), start);
    } else if (/\d/.test(c) || (c === '.' && /\d/.test(text[i + 1] ?? ''))) {
      while (i < text.length && /[\w.]/.test(text[i] ?? '')) i++;
      push('number', text.slice(start, i), start);
    } else if (c === '/' && regexAllowed(tokens[tokens.length - 1])) {
      i++;
      let inClass = false;
      while (i < text.length && text[i] !== '\n' && (inClass || text[i] !== '/')) {
        if (text[i] === '\\') i++;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i++;
      }
      i++;
      while (i < text.length && /\w/.test(text[i] ?? '')) i++;
      push('regex', text.slice(start, i), start);
    } else {
      const long = PUNCTUATORS.find((p) => text.startsWith(p, i));
      i += long?.length ?? 1;
      if (c === '{' || c === '(' || c === '[') depth++;
      else if (c === '}' || c === ')' || c === ']') depth--;
      push('punct', long ?? c, start);
    }
  }
  return tokens;
}

function regexAllowed(previous: Token | undefined): boolean {
  if (previous === undefined) return true;
  if (previous.kind === 'ident') return BEFORE_REGEX.has(previous.value);
  if (previous.kind === 'punct') return previous.value !== ')' && previous.value !== ']' && previous.value !== '}';
  return false;
}
