import { describe, expect, it } from 'vitest';
import { loadBody, loadError, renderError } from './helpers.js';

async function one(expression: string, props: Record<string, unknown> = {}, filters?: Record<string, (value: unknown, ...args: unknown[]) => unknown>): Promise<unknown> {
  const prompt = await loadBody(`<User>[{${expression}}]</User>\n`, {}, filters ? { filters } : undefined);
  return prompt.render(props).messages?.[0]?.content;
}

const PROPS = { n: 5, s: 'abc', list: ['x', 'y'], obj: { a: 'b' }, yes: true, nil: null, neg: '-2.5' };

/**
 * Filters given a value of another type behave as AgentMark's do: a string filter passes
 * anything but a string through unchanged (then it renders as any value does: null and missing
 * as '', arrays joined, objects as JSON), `join` passes a non-array through, `abs` and `round`
 * read numbers and numeric strings.
 */
describe('filters on values of another type', () => {
  it.each([
    ['join(props.s)', '[abc]'],
    ['join(props.s, "-")', '[abc]'],
    ['join(props.n)', '[5]'],
    ['join(props.nil)', '[]'],
    ['join(props.missing)', '[]'],
    ['join([1, null, "z"], "/")', '[1//z]'],
    ['upper(props.n)', '[5]'],
    ['upper(props.list)', '[xy]'],
    ['upper(props.obj)', '[{"a":"b"}]'],
    ['upper(props.yes)', '[true]'],
    ['upper(props.missing)', '[]'],
    ['lower(props.list)', '[xy]'],
    ['capitalize(props.n)', '[5]'],
    ['truncate(props.list, 1)', '[xy]'],
    ['truncate(props.n, 0)', '[5]'],
    ['replace(props.n, "5", "6")', '[5]'],
    ['urlencode(props.obj)', '[{"a":"b"}]'],
    ['abs(props.neg)', '[2.5]'],
    ['abs(props.s)', '[NaN]'],
    ['abs(props.missing)', '[NaN]'],
    ['round(props.neg)', '[-2]'],
    ['round("3.14159", 2)', '[3.14]'],
    ['round(1.005, 2)', '[1.01]'],
    ['round(props.nil)', '[NaN]'],
    ['dump(props.missing)', '[]'],
    ['dump(props.nil)', '[null]'],
    ['dump(props.n)', '[5]'],
  ])('%s renders %s', async (expression, expected) => {
    expect(await one(expression, PROPS)).toBe(expected);
  });

  it('still checks the arguments that configure a filter', async () => {
    const prompt = await loadBody('<User>{truncate(props.s, "x")}</User>\n');
    expect(renderError(() => prompt.render({ s: 'abc' }))).toEqual([
      'TEMPLATE_FILTER_ARGUMENT main.prompt.mdx:6:8: truncate(s, n) needs a whole number n >= 0',
    ]);
  });
});

describe("the project's own filters", () => {
  const filters = {
    shout: (value: unknown, times: unknown = 1) => `${String(value).toUpperCase()}${'!'.repeat(Number(times))}`,
    initials: (value: unknown) => (Array.isArray(value) ? value.map((v) => String(v)[0]).join('') : value),
    upper: (value: unknown) => `<<${String(value)}>>`,
  };

  it('are called like the built-ins, with the value first, and may replace one', async () => {
    expect(await one('shout(props.s, 3)', PROPS, filters)).toBe('[ABC!!!]');
    expect(await one('initials(["ada", "lovelace"])', PROPS, filters)).toBe('[al]');
    expect(await one('upper(props.s)', PROPS, filters)).toBe('[<<abc>>]');
    expect(await one('lower(shout(props.s))', PROPS, filters)).toBe('[abc!]');
  });

  it('name the filter when one throws or returns a Promise', async () => {
    const bad = { boom: () => { throw new Error('no way'); }, later: async () => 'x' };
    const prompt = await loadBody('<User>{boom(1)}</User>\n<Assistant>{later(1)}</Assistant>\n', {}, { filters: bad });
    expect(renderError(() => prompt.render({}))).toEqual(['TEMPLATE_FILTER_ARGUMENT main.prompt.mdx:6:8: filter "boom" failed: no way']);
    const later = await loadBody('<User>{later(1)}</User>\n', {}, { filters: bad });
    expect(renderError(() => later.render({}))).toEqual([
      'TEMPLATE_FILTER_ARGUMENT main.prompt.mdx:6:8: filter "later" returned a Promise; filters must return their value directly',
    ]);
  });

  it('are known to the load-time check, with a did-you-mean among them', async () => {
    expect(await loadError(loadBody('<User>{shoutt(props.s)}</User>\n', {}, { filters }))).toEqual([
      'PROMPT_UNKNOWN_FILTER main.prompt.mdx:6:8: unknown filter "shoutt" | hint: did you mean "shout"?',
    ]);
    expect(await loadError(loadBody('<User>{shout(props.s)}</User>\n'))).toEqual([
      'PROMPT_UNKNOWN_FILTER main.prompt.mdx:6:8: unknown filter "shout" | hint: filters: upper, lower, capitalize, truncate, abs, join, round, replace, urlencode, dump',
    ]);
  });
});
