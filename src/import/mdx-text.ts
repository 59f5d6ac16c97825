/**
 * Literal text for an MDX body: braces and `<` would start an expression or a tag, so each is
 * written as a string expression (`{'{'}`); everything else (markdown included) renders as written.
 */
export function escapeMdx(text: string): string {
  return text.replace(/[{}<]/g, (c) => `{'${c}'}`);
}

/** A prop path as an expression: `props.a.b`, with `props['x-y']` where a key is not an identifier. */
export function propExpression(path: readonly string[]): string {
  return path.map((key, i) => (i === 0 ? `props${access(key)}` : access(key))).join('');
}

function access(key: string): string {
  if (/^\d+$/.test(key)) return `[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key).replace(/"/g, "'")}]`;
}

/** A `{{ … }}` placeholder found in a template, with what surrounds it. */
export interface Placeholder {
  /** The text inside the braces, trimmed. */
  expression: string;
  start: number;
  end: number;
}

/** Every `{{ … }}` in the text, in order. */
export function placeholders(text: string): Placeholder[] {
  const found: Placeholder[] = [];
  const pattern = /\{\{-?\s*([\s\S]*?)\s*-?\}\}/g;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    found.push({ expression: match[1] ?? '', start: match.index, end: match.index + match[0].length });
  }
  return found;
}

/**
 * Rewrites `{{ … }}` placeholders as MDX expressions. `map` returns the expression for one
 * (without braces), or undefined to leave it as literal text (the caller reports it).
 */
export function convertPlaceholders(text: string, map: (expression: string) => string | undefined): string {
  let out = '';
  let at = 0;
  for (const p of placeholders(text)) {
    out += escapeMdx(text.slice(at, p.start));
    const mapped = map(p.expression);
    out += mapped === undefined ? escapeMdx(text.slice(p.start, p.end)) : `{${mapped}}`;
    at = p.end;
  }
  return out + escapeMdx(text.slice(at));
}

/** A role tag around content, on its own lines. */
export function roleTag(role: 'system' | 'user' | 'assistant', content: string): string {
  const tag = role === 'system' ? 'System' : role === 'user' ? 'User' : 'Assistant';
  return `<${tag}>\n${content.trim()}\n</${tag}>`;
}
