import { describe, expect, it } from 'vitest';
import { loadBody, loadError, renderError } from './helpers.js';

const FILTERS = 'filters: upper, lower, capitalize, truncate, abs, join, round, replace, urlencode, dump';

/**
 * An expression error that no props can avoid belongs to the prompt, not to a row: it is found
 * at load, so every command refuses the prompt before rendering a row or calling a model.
 */
describe('static template errors are load errors', () => {
  it('refuses constructor.constructor(...)() at load, even in a branch the test props never take', async () => {
    expect(await loadError(loadBody("<User>\n<If condition={props.never}>{constructor.constructor('return process')()}</If>\n</User>\n"))).toEqual([
      `TEMPLATE_NOT_A_FILTER main.prompt.mdx:7:30: only filters can be called; "constructor.constructor(…)" is not a filter | hint: ${FILTERS}`,
    ]);
  });

  it('lists every static error of the prompt and its components, each where it is', async () => {
    const body = "import Card from './card.mdx'\n\n<System>{process.env}</System>\n<User>\n<Card title={props.__proto__} />\n</User>\n";
    expect(await loadError(loadBody(body, { 'card.mdx': '{shout(props.title)}\n' }))).toEqual([
      'TEMPLATE_UNKNOWN_IDENTIFIER main.prompt.mdx:8:10: unknown identifier "process" | hint: props are read as props.process; known names here: props',
      'TEMPLATE_FORBIDDEN_PROPERTY main.prompt.mdx:10:20: property "__proto__" is not allowed',
      `PROMPT_UNKNOWN_FILTER card.mdx:1:2: unknown filter "shout" | hint: ${FILTERS}`,
    ]);
  });

  it('knows ForEach variables only inside their ForEach, and JSX inside expressions sees them', async () => {
    const ok = '<User>\n<ForEach arr={props.items}>{(item, i) => <>{i}: {item.name ? <b>{upper(item.name)}</b> : "-"}</>}</ForEach>\n</User>\n';
    expect((await loadBody(ok)).render({ items: [{ name: 'a' }, {}] }).messages).toEqual([{ role: 'user', content: '0: <b>A</b>\n1: -' }]);
    expect(await loadError(loadBody('<User>\n<ForEach arr={props.items}>{(item) => <>{item}</>}</ForEach>{item}\n</User>\n'))).toEqual([
      'TEMPLATE_UNKNOWN_IDENTIFIER main.prompt.mdx:7:62: unknown identifier "item" | hint: props are read as props.item; known names here: props',
    ]);
  });

  it('leaves errors that depend on the props to the render', async () => {
    const prompt = await loadBody('<User>{truncate(props.s, props.n)}{props[props.key]}</User>\n');
    expect(prompt.render({ s: 'abcdef', n: 3 }).messages).toEqual([{ role: 'user', content: 'abc...' }]);
    expect(renderError(() => prompt.render({ s: 'x', n: -1 }))).toEqual(['TEMPLATE_FILTER_ARGUMENT main.prompt.mdx:6:8: truncate(s, n) needs a whole number n >= 0']);
    expect(renderError(() => prompt.render({ s: '', n: 0, key: 'constructor' }))).toEqual(['TEMPLATE_FORBIDDEN_PROPERTY main.prompt.mdx:6:42: property "constructor" is not allowed']);
  });

  it('checks text outside role tags too: the whole body is rendered, then what is outside is dropped', async () => {
    expect(await loadError(loadBody('<User>hi</User>\nNot sent: {nope}\n'))).toEqual([
      'TEMPLATE_UNKNOWN_IDENTIFIER main.prompt.mdx:7:12: unknown identifier "nope" | hint: props are read as props.nope; known names here: props',
    ]);
  });
});
