/** Nunjucks filters with a template filter of the same meaning: name → (value, args) → expression. */
const FILTERS: Record<string, (value: string, args: string[]) => string> = {
  upper: (v) => `upper(${v})`,
  lower: (v) => `lower(${v})`,
  capitalize: (v) => `capitalize(${v})`,
  truncate: (v, a) => `truncate(${[v, ...a].join(', ')})`,
  join: (v, a) => `join(${[v, ...a].join(', ')})`,
  round: (v, a) => `round(${[v, ...a].join(', ')})`,
  abs: (v) => `abs(${v})`,
  replace: (v, a) => `replace(${[v, ...a].join(', ')})`,
  urlencode: (v) => `urlencode(${v})`,
  dump: (v) => `dump(${v})`,
  safe: (v) => v,
  escape: (v) => v,
};

const WORDS: Record<string, string> = { and: '&&', or: '||', not: '!', true: 'true', false: 'false', none: 'null', null: 'null' };

/**
 * A Nunjucks expression as one of our template expressions, or a reason it has no counterpart.
 * Root names are props (`props.x`) unless bound by an enclosing `{% for %}` (`locals`);
 * `loop.index`/`loop.index0`/`loop.first` read the ForEach index.
 */
export function nunjucksExpression(source: string, locals: ReadonlyMap<string, string>): { js: string } | { error: string } {
  const [head = '', ...filters] = splitFilters(source);
  const base = translate(head, locals);
  if ('error' in base) return base;
  let js = base.js;
  for (const filter of filters) {
    const match = /^\s*([A-Za-z_]\w*)\s*(?:\(([\s\S]*)\))?\s*$/.exec(filter);
    const make = match?.[1] === undefined ? undefined : FILTERS[match[1]];
    if (match === null || make === undefined) return { error: `filter "${filter.trim()}" has no counterpart` };
    const args = match[2] === undefined || match[2].trim() === '' ? [] : match[2].split(',').map((a) => translate(a, locals));
    const bad = args.find((a): a is { error: string } => 'error' in a);
    if (bad !== undefined) return bad;
    js = make(js, args.map((a) => (a as { js: string }).js));
  }
  return { js };
}

/** `a | upper | truncate(3)` → [a, upper, truncate(3)], ignoring `|` inside strings and `||`. */
function splitFilters(source: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: string | undefined;
  let depth = 0;
  for (let i = 0; i < source.length; i += 1) {
    const c = source[i] ?? '';
    if (quote !== undefined) {
      if (c === quote && source[i - 1] !== '\\') quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth += 1;
    else if (c === ')') depth -= 1;
    else if (c === '|' && depth === 0 && source[i + 1] !== '|' && source[i - 1] !== '|') {
      parts.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  parts.push(current);
  return parts;
}

function translate(source: string, locals: ReadonlyMap<string, string>): { js: string } | { error: string } {
  const token = /\s*(?:("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(\d+(?:\.\d+)?)|([A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\d+\]|\[(?:"[^"]*"|'[^']*')\])*)|(==|!=|<=|>=|[<>+\-*/%(),\[\]]))/y;
  const out: string[] = [];
  let at = 0;
  while (at < source.length && !/^\s*$/.test(source.slice(at))) {
    token.lastIndex = at;
    const m = token.exec(source);
    if (m === null) return { error: `"${source.trim()}" has no counterpart` };
    at = token.lastIndex;
    const [, string, number, name, operator] = m;
    if (string !== undefined) out.push(string);
    else if (number !== undefined) out.push(number);
    else if (operator !== undefined) out.push(operator);
    else if (name !== undefined) {
      const word = WORDS[name];
      if (word !== undefined) {
        out.push(word);
        continue;
      }
      if (name === 'in' || name === 'is' || name === 'if' || name === 'else') return { error: `"${source.trim()}" uses "${name}", which has no counterpart` };
      const [root = '', ...rest] = name.split(/(?=[.[])/);
      if (root === 'loop') {
        const loopVar = { '.index': '(index + 1)', '.index0': 'index', '.first': '(index == 0)' }[rest.join('')];
        if (loopVar === undefined) return { error: `"${name}" has no counterpart` };
        out.push(loopVar);
      } else out.push(`${locals.get(root) ?? `props.${root}`}${rest.join('')}`);
    }
  }
  return { js: out.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')').replace(/ ,/g, ',').replace(/! /g, '!') };
}
