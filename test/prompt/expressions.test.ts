import { describe, expect, it } from 'vitest';
import { describeError, loadBody, loadError, renderBody, renderError } from './helpers.js';

async function one(expression: string, props: Record<string, unknown> = {}): Promise<unknown> {
  const [content] = await renderBody(`<User>[{${expression}}]</User>\n`, props);
  return content;
}

const PROPS = {
  name: 'Ann',
  user: { address: { city: 'Oslo' }, tags: ['a', 'b'] },
  list: [{ title: 'first' }, { title: 'second' }],
  n: 7,
  zero: 0,
  nothing: null,
  flag: true,
  'odd key': 'odd',
};

describe('expressions', () => {
  it.each([
    ['props.name', '[Ann]'],
    ["props['name']", '[Ann]'],
    ["props['odd key']", '[odd]'],
    ['props.user.address.city', '[Oslo]'],
    ['props.list[1].title', '[second]'],
    ['props.list[props.zero].title', '[first]'],
    ['props.list.length', '[2]'],
    ['props.user?.address?.city', '[Oslo]'],
    ['props.missing.deeply.nested[3].x', '[]'],
    ['props.missing?.x', '[]'],
    ['props.nothing', '[]'],
    ['props.user.tags', '[ab]'],
    ['props.user.address', '[{"city":"Oslo"}]'],
    ['"text"', '[text]'],
    ['42', '[42]'],
    ['true', '[true]'],
    ['null', '[]'],
    ['[1, "a", null, 2]', '[1a2]'],
    ['{ a: 1, "b": [2] }', '[{"a":1,"b":[2]}]'],
    ['props.n + 1', '[8]'],
    ['props.n - 2 * 3', '[1]'],
    ['props.n / 2', '[3.5]'],
    ['props.n % 4', '[3]'],
    ['"Hi " + props.name', '[Hi Ann]'],
    ['"x" + props.missing', '[x]'],
    ['-props.n', '[-7]'],
    ['+"3" + 1', '[4]'],
    ['props.n > 5', '[true]'],
    ['props.n >= 8', '[false]'],
    ['props.n < 8 && props.n <= 7', '[true]'],
    ['props.n == "7"', '[true]'],
    ['props.n != 7', '[false]'],
    ['props.n === 7', '[true]'],
    ['props.n !== "7"', '[true]'],
    ['props.missing == null', '[true]'],
    ['!props.flag', '[false]'],
    ['props.zero || "fallback"', '[fallback]'],
    ['props.flag && "yes"', '[yes]'],
    ['props.nothing ?? "default"', '[default]'],
    ['props.flag ? "on" : "off"', '[on]'],
    ['props.zero ? "on" : "off"', '[off]'],
    ['`Hello ${props.name}, ${props.n + 1}${props.missing}`', '[Hello Ann, 8]'],
    ['undefined', '[]'],
  ])('%s renders %s', async (expression, expected) => {
    expect(await one(expression, PROPS)).toBe(expected);
  });

  it('removes comments, including whole comment lines', async () => {
    expect(await renderBody('<User>\nbefore {/* inline */}after\n{/* a whole line */}\nend\n</User>\n')).toEqual(['before after\nend']);
  });

  it('renders JSX inside an expression', async () => {
    expect(await renderBody('<User>{props.flag ? <>on {props.name}</> : "off"}</User>\n', PROPS)).toEqual(['on Ann']);
  });
});

describe('filters', () => {
  it.each([
    ['upper(props.name)', '[ANN]'],
    ['lower("MiXed")', '[mixed]'],
    ['capitalize("hello world")', '[Hello world]'],
    ['truncate("abcdefgh", 3)', '[abc...]'],
    ['truncate("abc", 3)', '[abc]'],
    ['abs(-2.5)', '[2.5]'],
    ['join(props.user.tags)', '[a, b]'],
    ['join(props.user.tags, " | ")', '[a | b]'],
    ['join(props.missing)', '[]'],
    ['round(3.14159)', '[3]'],
    ['round(3.14159, 2)', '[3.14]'],
    ['replace("a-b-c", "-", "+")', '[a+b+c]'],
    ['urlencode("a b&c")', '[a%20b%26c]'],
    ['dump(props.user)', '[{"address":{"city":"Oslo"},"tags":["a","b"]}]'],
    ['dump("s")', '["s"]'],
    ['upper(truncate(props.name, 1))', '[A...]'],
  ])('%s renders %s', async (expression, expected) => {
    expect(await one(expression, PROPS)).toBe(expected);
  });
});

describe('expression errors', () => {
  /** A template's error: at load when no props can avoid it (see static-errors.test.ts), else at render. */
  async function failure(body: string, props: Record<string, unknown> = {}): Promise<string[]> {
    const loaded = await loadBody(body).catch((error: unknown) => describeError(error));
    return Array.isArray(loaded) ? loaded : renderError(() => loaded.render(props));
  }
  const FILTER_LIST = 'filters: upper, lower, capitalize, truncate, abs, join, round, replace, urlencode, dump';

  it('names an unknown filter at load, even in a branch not taken', async () => {
    expect(await loadError(loadBody('<User>\n{shout(props.x)}\n</User>\n'))).toEqual([
      `PROMPT_UNKNOWN_FILTER main.prompt.mdx:7:2: unknown filter "shout" | hint: ${FILTER_LIST}`,
    ]);
    expect(await loadError(loadBody('<User><If condition={false}>{uper(props.x)}</If></User>\n'))).toEqual([
      'PROMPT_UNKNOWN_FILTER main.prompt.mdx:6:30: unknown filter "uper" | hint: did you mean "upper"?',
    ]);
  });

  it('refuses to call anything but a filter', async () => {
    expect(await failure('<User>\n{props.x.toString()}\n</User>\n', { x: 1 })).toEqual([
      `TEMPLATE_NOT_A_FILTER main.prompt.mdx:7:2: only filters can be called; "props.x.toString" is not a filter | hint: ${FILTER_LIST}`,
    ]);
  });

  it('names a bare unknown identifier', async () => {
    expect(await failure('<User>\n{prop.x}\n</User>\n')).toEqual([
      'TEMPLATE_UNKNOWN_IDENTIFIER main.prompt.mdx:7:2: unknown identifier "prop" | hint: did you mean "props"?',
    ]);
    expect(await failure('<User>Hi {name}</User>\n')).toEqual([
      'TEMPLATE_UNKNOWN_IDENTIFIER main.prompt.mdx:6:11: unknown identifier "name" | hint: props are read as props.name; known names here: props',
    ]);
  });

  it('rejects syntax outside the whitelist', async () => {
    expect(await failure('<User>{props.a = 1}</User>\n')).toEqual([
      'TEMPLATE_UNSUPPORTED_SYNTAX main.prompt.mdx:6:8: operator "=" is not allowed in a template expression',
    ]);
    expect(await failure('<User>{typeof props}</User>\n')).toEqual([
      'TEMPLATE_UNSUPPORTED_SYNTAX main.prompt.mdx:6:8: operator "typeof" is not allowed in a template expression',
    ]);
    expect(await failure('<User>{(() => 1)}</User>\n')).toEqual([
      'TEMPLATE_UNSUPPORTED_SYNTAX main.prompt.mdx:6:9: a function is only allowed as the child of <ForEach> | hint: write <ForEach arr={props.items}>{(item, index) => <>…</>}</ForEach>',
    ]);
  });

  it('reports a bad filter argument', async () => {
    expect(await failure('<User>{truncate("abc", "x")}</User>\n')).toEqual([
      'TEMPLATE_FILTER_ARGUMENT main.prompt.mdx:6:8: truncate(s, n) needs a whole number n >= 0',
    ]);
  });
});
