import { describe, expect, it } from 'vitest';
import type { EsNode } from '../../src/prompt/estree.js';
import { evaluate, type EvalContext } from '../../src/prompt/evaluate.js';
import { LineIndex } from '../../src/prompt/line-index.js';
import { describeError, loadBody, loadError, renderBody, renderError } from './helpers.js';

/** A template's error: at load when no props can avoid it (see static-errors.test.ts), else at render. */
async function failure(body: string, props: Record<string, unknown> = {}): Promise<string[]> {
  const loaded = await loadBody(body).catch((error: unknown) => describeError(error));
  return Array.isArray(loaded) ? loaded : renderError(() => loaded.render(props));
}

/** A props object nested `depth` levels under key `a`, ending in 'end'. */
function deepProps(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { a: 'end' };
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

describe('hostile templates', () => {
  it.each([
    ['props.x.constructor', 16, 'constructor'],
    ["props['__proto__']", 14, '__proto__'],
    ['props.x?.prototype', 17, 'prototype'],
    ['props[`constructor`]', 14, 'constructor'],
    ['{ __proto__: props }', 10, '__proto__'],
  ])('rejects %s', async (expression, column, key) => {
    expect(await failure(`<User>{${expression}}</User>\n`, { x: {} })).toEqual([
      `TEMPLATE_FORBIDDEN_PROPERTY main.prompt.mdx:6:${column}: property "${key}" is not allowed`,
    ]);
  });

  it('treats globals as unknown identifiers', async () => {
    for (const name of ['process', 'globalThis', 'require', 'window', 'eval']) {
      const [message] = await failure(`<User>{${name}.x}</User>\n`);
      expect(message).toBe(`TEMPLATE_UNKNOWN_IDENTIFIER main.prompt.mdx:6:8: unknown identifier "${name}" | hint: props are read as props.${name}; known names here: props`);
    }
    expect(await loadError(loadBody('<User>{Function("return 1")}</User>\n'))).toEqual([
      'PROMPT_UNKNOWN_FILTER main.prompt.mdx:6:8: unknown filter "Function" | hint: filters: upper, lower, capitalize, truncate, abs, join, round, replace, urlencode, dump',
    ]);
  });

  it('reads only own properties of plain data', async () => {
    const [content] = (await loadBody('<User>[{props.toString}][{props.list.map}][{props.s.length}][{props.hasOwnProperty}]</User>\n'))
      .render({ list: [1], s: 'abc' }).messages?.map((m) => m.content) ?? [];
    expect(content).toBe('[][][3][]');
  });

  it('rejects constructs outside the whitelist', async () => {
    expect(await failure('<User>{this}</User>\n')).toEqual([
      'TEMPLATE_UNSUPPORTED_SYNTAX main.prompt.mdx:6:8: ThisExpression is not allowed in a template expression',
    ]);
    expect(await failure('<User>{new props.X()}</User>\n')).toEqual([
      'TEMPLATE_UNSUPPORTED_SYNTAX main.prompt.mdx:6:8: NewExpression is not allowed in a template expression',
    ]);
    expect(await failure('<User>{props.list.map((x) => x)}</User>\n', { list: [1] })).toEqual([
      'TEMPLATE_NOT_A_FILTER main.prompt.mdx:6:8: only filters can be called; "props.list.map" is not a filter | hint: filters: upper, lower, capitalize, truncate, abs, join, round, replace, urlencode, dump',
    ]);
  });

  it('does not let a component attribute named __proto__ change the props prototype', async () => {
    const prompt = await loadBody("import A from './a.mdx'\n\n<User><A __proto__={props.evil} /></User>\n", { 'a.mdx': '[{props.polluted}]\n' });
    expect(prompt.render({ evil: { polluted: 'yes' } }).messages).toEqual([{ role: 'user', content: '[]' }]);
  });

  it('survives a 10,000-segment prop path with a located error', async () => {
    const path = `props${'.a'.repeat(10_000)}`;
    expect(await loadError(loadBody(`<User>\n{${path}}\n</User>\n`))).toEqual([
      'PROMPT_TOO_DEEP main.prompt.mdx:7:1: expression is nested too deeply to parse | hint: the MDX parser ran out of stack; split the expression or flatten the props',
    ]);
  });

  it('evaluates long member chains iteratively', async () => {
    const prompt = await loadBody(`<User>{props${'.a'.repeat(2_000)}}</User>\n`);
    expect(prompt.render(deepProps(2_000)).messages).toEqual([{ role: 'user', content: 'end' }]);
    expect(prompt.render({}).messages).toEqual([{ role: 'user', content: '' }]);

    // 10,000 links built directly (the MDX parser cannot parse that many): no stack is used per link.
    let node: EsNode = { type: 'Identifier', name: 'props', start: 0, end: 5 };
    for (let i = 0; i < 10_000; i++) {
      node = { type: 'MemberExpression', object: node, property: { type: 'Identifier', name: 'a', start: 0, end: 1 }, computed: false, optional: false, start: 0, end: 1 };
    }
    const ctx: EvalContext = { file: 'x.mdx', lines: new LineIndex(''), props: deepProps(10_000), locals: new Map(), renderJsx: () => '' };
    expect(evaluate(ctx, node)).toBe('end');
  });

  it('turns deeply nested expressions into a template error', async () => {
    expect(await failure(`<User>{${'- '.repeat(800)}1}</User>\n`)).toEqual([
      'TEMPLATE_TOO_DEEP main.prompt.mdx:6:1010: expression is nested too deeply (more than 500 levels)',
    ]);
  });

  // Each must fail with its own known error: loadError fails the test when nothing is thrown,
  // and rethrows anything that is not one of our typed errors.
  it.each([
    [
      '<User>{props.a.b.c.constructor.constructor("return process")()}</User>\n',
      'TEMPLATE_NOT_A_FILTER main.prompt.mdx:6:8: only filters can be called; "props.a.b.c.constructor.constructor(…)" is not a filter | hint: filters: upper, lower, capitalize, truncate, abs, join, round, replace, urlencode, dump',
    ],
    ['<User>{(props.x = 1)}</User>\n', 'TEMPLATE_UNSUPPORTED_SYNTAX main.prompt.mdx:6:9: operator "=" is not allowed in a template expression'],
    ['<User>{delete props.x}</User>\n', 'TEMPLATE_UNSUPPORTED_SYNTAX main.prompt.mdx:6:8: operator "delete" is not allowed in a template expression'],
    ['<User>{props.x++}</User>\n', 'TEMPLATE_UNSUPPORTED_SYNTAX main.prompt.mdx:6:8: operator "++" is not allowed in a template expression'],
    ['<User>{import("fs")}</User>\n', 'TEMPLATE_UNSUPPORTED_SYNTAX main.prompt.mdx:6:8: ImportExpression is not allowed in a template expression'],
    [
      '<User>{/x/.test(props.s)}</User>\n',
      'TEMPLATE_NOT_A_FILTER main.prompt.mdx:6:8: only filters can be called; "(…).test" is not a filter | hint: filters: upper, lower, capitalize, truncate, abs, join, round, replace, urlencode, dump',
    ],
    ['<User>{10n}</User>\n', 'TEMPLATE_UNSUPPORTED_SYNTAX main.prompt.mdx:6:8: Literal is not allowed in a template expression'],
    ['<User>{[...props.list]}</User>\n', 'TEMPLATE_UNSUPPORTED_SYNTAX main.prompt.mdx:6:9: array holes and spreads are not supported'],
    ['<User>{upper(...props.list)}</User>\n', 'TEMPLATE_UNSUPPORTED_SYNTAX main.prompt.mdx:6:14: spread arguments are not supported'],
    ['<User>{async () => 1}</User>\n', 'TEMPLATE_UNSUPPORTED_SYNTAX main.prompt.mdx:6:8: a function is only allowed as the child of <ForEach> | hint: write <ForEach arr={props.items}>{(item, index) => <>…</>}</ForEach>'],
    ['<User>{props.a, props.b}</User>\n', 'TEMPLATE_UNSUPPORTED_SYNTAX main.prompt.mdx:6:8: SequenceExpression is not allowed in a template expression'],
    [
      '<User>{`${process}`}</User>\n',
      'TEMPLATE_UNKNOWN_IDENTIFIER main.prompt.mdx:6:11: unknown identifier "process" | hint: props are read as props.process; known names here: props',
    ],
    ['<User><b {...props} /></User>\n', 'PROMPT_UNSUPPORTED_SYNTAX main.prompt.mdx:6:10: spread attributes ({...x}) are not supported'],
    [
      '<User>{<Unknown />}</User>\n',
      'TEMPLATE_UNKNOWN_TAG main.prompt.mdx:6:8: unknown tag <Unknown> | hint: known tags: System, User, Assistant, If, ElseIf, Else, ForEach, Raw, ImageAttachment, FileAttachment',
    ],
  ])('refuses %j with a known error', async (body, expected) => {
    expect(await loadError(loadBody(body).then((prompt) => prompt.render({ list: [1], s: 'x' })))).toEqual([expected]);
  });

  it('renders an empty expression as nothing and an object as JSON text, never as [object Object]', async () => {
    expect(await renderBody('<User>{}</User>\n<User>{"a" + {}}</User>\n')).toEqual(['', 'a{}']);
  });
});
