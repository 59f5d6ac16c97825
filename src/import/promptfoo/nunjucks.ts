import { escapeMdx } from '../mdx-text.js';
import { nunjucksExpression } from './nunjucks-expression.js';

/** A Nunjucks template as MDX, and each part that could not be carried over (kept as literal text). */
export interface ConvertedTemplate {
  mdx: string;
  problems: string[];
}

type Token = { kind: 'text'; text: string } | { kind: 'output'; source: string; raw: string } | { kind: 'tag'; source: string; raw: string };

function tokenize(template: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\{\{-?([\s\S]*?)-?\}\}|\{%-?([\s\S]*?)-?%\}|\{#[\s\S]*?#\}/g;
  let at = 0;
  for (let m = pattern.exec(template); m !== null; m = pattern.exec(template)) {
    if (m.index > at) tokens.push({ kind: 'text', text: template.slice(at, m.index) });
    if (m[1] !== undefined) tokens.push({ kind: 'output', source: m[1].trim(), raw: m[0] });
    else if (m[2] !== undefined) tokens.push({ kind: 'tag', source: m[2].trim(), raw: m[0] });
    at = m.index + m[0].length;
  }
  if (at < template.length) tokens.push({ kind: 'text', text: template.slice(at) });
  return tokens;
}

/**
 * `{{ x }}` → `{props.x}` (filters with a counterpart become ours), `{% if %}…{% elif %}…{% else %}`
 * → `<If>/<ElseIf>/<Else>` (a Nunjucks condition is truthy, ours must be `true`: hence `!!(…)`),
 * `{% for x in xs %}` → `<ForEach>`, `{# … #}` dropped. Anything else stays literal and is named.
 */
export function nunjucksToMdx(template: string): ConvertedTemplate {
  const tokens = tokenize(template);
  const problems: string[] = [];
  let i = 0;
  const literal = (raw: string, why: string): string => {
    problems.push(`${raw.replace(/\s+/g, ' ')}: ${why}`);
    return escapeMdx(raw);
  };
  /** Renders tokens until one of the `stops` tags; returns the text and the tag that stopped it. */
  const block = (locals: Map<string, string>, stops: string[]): { mdx: string; stop?: string; stopSource?: string } => {
    let mdx = '';
    while (i < tokens.length) {
      const token = tokens[i] as Token;
      i += 1;
      if (token.kind === 'text') {
        mdx += escapeMdx(token.text);
        continue;
      }
      if (token.kind === 'output') {
        const expr = nunjucksExpression(token.source, locals);
        mdx += 'error' in expr ? literal(token.raw, expr.error) : `{${expr.js}}`;
        continue;
      }
      const word = token.source.split(/\s+/)[0] ?? '';
      if (stops.includes(word)) return { mdx, stop: word, stopSource: token.source };
      if (word === 'if') mdx += ifBlock(token, locals);
      else if (word === 'for') mdx += forBlock(token, locals);
      else mdx += literal(token.raw, `the {% ${word} %} tag has no counterpart`);
    }
    return { mdx };
  };
  const condition = (source: string, locals: Map<string, string>, raw: string): string | undefined => {
    const expr = nunjucksExpression(source, locals);
    if ('error' in expr) {
      literal(raw, expr.error);
      return undefined;
    }
    return `!!(${expr.js})`;
  };
  const ifBlock = (open: Extract<Token, { kind: 'tag' }>, locals: Map<string, string>): string => {
    let out = '';
    let tag = 'If';
    let cond = condition(open.source.replace(/^if\s+/, ''), locals, open.raw);
    for (;;) {
      const body = block(locals, ['elif', 'elseif', 'else', 'endif']);
      out += tag === 'Else' ? `<Else>${body.mdx}</Else>` : `<${tag} condition={${cond ?? 'false'}}>${body.mdx}</${tag}>`;
      if (body.stop === undefined) {
        problems.push(`{% ${open.source} %}: no {% endif %}`);
        return out;
      }
      if (body.stop === 'endif') return out;
      if (body.stop === 'else') {
        tag = 'Else';
        cond = undefined;
      } else {
        tag = 'ElseIf';
        cond = condition((body.stopSource ?? '').replace(/^el(?:s?e)?if\s+/, ''), locals, `{% ${body.stopSource ?? ''} %}`);
      }
    }
  };
  const forBlock = (open: Extract<Token, { kind: 'tag' }>, locals: Map<string, string>): string => {
    const m = /^for\s+([A-Za-z_]\w*)\s+in\s+([\s\S]+)$/.exec(open.source);
    const iterable = m?.[2] === undefined ? undefined : nunjucksExpression(m[2], locals);
    if (m === null || iterable === undefined || 'error' in iterable) {
      const body = block(locals, ['endfor']);
      return literal(open.raw, m === null ? 'only {% for x in list %} has a counterpart' : (iterable as { error: string }).error) + body.mdx;
    }
    const name = m[1] ?? 'item';
    const inner = new Map(locals);
    inner.set(name, name);
    const body = block(inner, ['endfor', 'else']);
    if (body.stop === 'else') {
      block(inner, ['endfor']);
      problems.push(`{% ${open.source} %} … {% else %}: the else branch of a for loop has no counterpart (dropped)`);
    }
    return `<ForEach arr={${iterable.js}}>{(${name}, index) => (<>${body.mdx}</>)}</ForEach>`;
  };
  const { mdx } = block(new Map(), []);
  return { mdx, problems };
}

/** The variables a template reads at its root (`{{ a.b }}` → a), for datasets and input checks. */
export function templateVars(template: string): string[] {
  const names = new Set<string>();
  for (const m of template.matchAll(/\{\{-?\s*([A-Za-z_]\w*)/g)) if (m[1] !== undefined) names.add(m[1]);
  return [...names];
}
