/**
 * Property-based: mutated prompt files, components, expressions and dataset lines fed to the
 * loaders. They may be rejected, but only with the project's own AgentmarkError subclasses,
 * never another error, a crash or a hang, and nothing they do reaches JavaScript globals or
 * prototypes. Bounded runs with a fixed seed, so a failure reproduces.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '../../src/dataset/index.js';
import { isAgentmarkError } from '../../src/errors/index.js';
import { loadPrompt } from '../../src/prompt/index.js';

const SEED = 20_240_611;
const RUNS = 300;
/** One case that takes longer than this is a hang. */
const CASE_LIMIT_MS = 5_000;

let dir = '';
let fileNumber = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentmark-fuzz-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const PROMPT = `---
name: fuzz
text_config:
  model_name: openai/gpt-4o-mini
  temperature: 0.2
test_settings:
  props:
    name: Ada
    items: [{ title: one }, { title: two }]
    vip: true
input_schema:
  type: object
  properties:
    name: { type: string }
    items: { type: array }
    vip: { type: boolean }
---
import Part from './part.mdx'

<System>You are terse. {/* comment */}</System>
<User>
Hello {upper(props.name)}, {truncate(props.name, 2)} {props.items[0].title ?? 'none'}
<If condition={props.vip === true}>VIP</If><ElseIf condition={props.name == 'x'}>x</ElseIf><Else>regular</Else>
<ForEach arr={props.items}>{(item, index) => (<>- {index}: {item.title}</>)}</ForEach>
<Part label={props.name}>child {props.vip}</Part>
<Raw>{literal}</Raw> <examples>{join(props.items, '; ')}</examples>
</User>
<Assistant>{\`\${props.name}!\`}</Assistant>
`;

const COMPONENT = '[{props.label}] {props.children}\n';

/** Pieces that steer mutations towards the interesting syntax. */
const TOKENS = [
  '{', '}', '<', '>', '</', '/>', '---', '\n', '"', "'", '`', '${', '(', ')', '[', ']', '.', '?.', '=>', ':', '&',
  '*a', '&a', '!!', 'props', 'props.', 'constructor', '__proto__', 'prototype', 'process', 'globalThis', 'this',
  'Function', 'eval', 'require', 'import', 'export', '<User>', '</User>', '<System>', '<If condition={true}>', '</If>',
  '<ForEach arr={props.items}>', '</ForEach>', '<Raw>', '</Raw>', '<Part />', "import X from './x.mdx'", 'upper(', 'dump(props)',
  '\u0000', '\uFFFD', '\u202E', '\uD800', '🙂', 'text_config:', 'name:', '  ', '\t',
];

type Mutation =
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'duplicate'; at: number; length: number }
  | { kind: 'swap'; at: number; other: number; length: number };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 4 })) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 60 }) }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), other: fc.nat(), length: fc.integer({ min: 1, max: 20 }) }),
);

function mutate(text: string, mutations: readonly Mutation[]): string {
  let out = text;
  for (const m of mutations) {
    const at = out.length === 0 ? 0 : m.at % (out.length + 1);
    switch (m.kind) {
      case 'insert':
        out = out.slice(0, at) + m.text + out.slice(at);
        break;
      case 'delete':
        out = out.slice(0, at) + out.slice(at + m.length);
        break;
      case 'duplicate':
        out = out.slice(0, at) + out.slice(at, at + m.length) + out.slice(at);
        break;
      case 'swap': {
        const other = out.length === 0 ? 0 : m.other % (out.length + 1);
        const [a, b] = at < other ? [at, other] : [other, at];
        out = out.slice(0, a) + out.slice(b, b + m.length) + out.slice(a + m.length, b) + out.slice(a, a + m.length) + out.slice(b + m.length);
        break;
      }
    }
  }
  return out;
}

/** Fails a case that does not settle in time, instead of letting the suite hang. */
async function bounded<T>(what: string, run: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      run(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer within ${CASE_LIMIT_MS} ms (hang)`)), CASE_LIMIT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Only the project's own errors are allowed out; anything else is a bug, shown with the input. */
function assertOwnError(error: unknown, input: string): void {
  if (isAgentmarkError(error)) return;
  const shown = error instanceof Error ? (error.stack ?? error.message) : String(error);
  throw new Error(`not an AgentmarkError: ${shown}\n--- input ---\n${input}`);
}

const PROTOTYPE_KEYS = {
  object: Object.getOwnPropertyNames(Object.prototype).sort(),
  array: Object.getOwnPropertyNames(Array.prototype).sort(),
  function: Object.getOwnPropertyNames(Function.prototype).sort(),
};

/** Nothing rendered may carry code or process facts, and no prototype may have changed. */
function assertNoLeak(rendered: unknown, input: string): void {
  const json = JSON.stringify(rendered);
  for (const secret of ['[native code]', 'function ', process.version, process.execPath, process.cwd(), String(process.pid) + ',']) {
    if (secret !== '' && json.includes(secret) && !input.includes(secret)) {
      throw new Error(`render leaked ${JSON.stringify(secret)}: ${json}\n--- input ---\n${input}`);
    }
  }
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS.object);
  expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(PROTOTYPE_KEYS.array);
  expect(Object.getOwnPropertyNames(Function.prototype).sort()).toEqual(PROTOTYPE_KEYS.function);
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
}

const PROPS = { name: 'Ada', items: [{ title: 'one' }, { title: 'two' }], vip: true, nested: { deep: { er: 'x' } } };

/** Loads `prompt` (with `component` as ./part.mdx beside it) and renders it with default and hostile props. */
async function loadAndRender(prompt: string, component: string): Promise<void> {
  const folder = join(dir, String(fileNumber++));
  await import('node:fs/promises').then((fs) => fs.mkdir(folder));
  await writeFile(join(folder, 'main.prompt.mdx'), prompt);
  await writeFile(join(folder, 'part.mdx'), component);
  const input = `${prompt}\n--- part.mdx ---\n${component}`;
  try {
    const loaded = await bounded('loadPrompt', () => loadPrompt(join(folder, 'main.prompt.mdx')));
    for (const props of [PROPS, {}, JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"name":{"length":1}}') as Record<string, unknown>]) {
      try {
        assertNoLeak(loaded.render(props), input);
      } catch (error) {
        assertOwnError(error, input);
      }
    }
  } catch (error) {
    assertOwnError(error, input);
  }
}

describe('fuzzed prompt files', () => {
  it('the unmutated prompt loads and renders (the mutations start from valid input)', async () => {
    const folder = join(dir, 'valid');
    await import('node:fs/promises').then((fs) => fs.mkdir(folder));
    await writeFile(join(folder, 'main.prompt.mdx'), PROMPT);
    await writeFile(join(folder, 'part.mdx'), COMPONENT);
    const rendered = (await loadPrompt(join(folder, 'main.prompt.mdx'))).render(PROPS);
    expect(rendered.messages?.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
  });

  it('mutated prompts load and render, or fail with an AgentmarkError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutationArb, { minLength: 1, maxLength: 6 }), async (mutations) => {
        await loadAndRender(mutate(PROMPT, mutations), COMPONENT);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 120_000);

  it('mutated components behave the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutationArb, { minLength: 1, maxLength: 4 }), async (mutations) => {
        await loadAndRender(PROMPT, mutate(`${COMPONENT}<If condition={props.label == 'Ada'}>{dump(props)}</If>\n`, mutations));
      }),
      { numRuns: RUNS, seed: SEED + 1 },
    );
  }, 120_000);

  it('random bytes as a prompt file fail with an AgentmarkError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), fc.boolean(), async (bytes, withFrontmatter) => {
        const head = withFrontmatter ? Buffer.from('---\nname: x\ntext_config:\n  model_name: openai/gpt-4o-mini\n---\n') : Buffer.alloc(0);
        const folder = join(dir, String(fileNumber++));
        await import('node:fs/promises').then((fs) => fs.mkdir(folder));
        await writeFile(join(folder, 'main.prompt.mdx'), Buffer.concat([head, bytes]));
        try {
          const loaded = await bounded('loadPrompt', () => loadPrompt(join(folder, 'main.prompt.mdx')));
          assertNoLeak(loaded.render(PROPS), Buffer.from(bytes).toString('latin1'));
        } catch (error) {
          assertOwnError(error, Buffer.from(bytes).toString('hex'));
        }
      }),
      { numRuns: RUNS, seed: SEED + 2 },
    );
  }, 120_000);
});

/** Expressions built from the dangerous names: a result is plain text, never a global or a function. */
const exprArb: fc.Arbitrary<string> = fc.letrec<{ expr: string; atom: string }>((tie) => ({
  atom: fc.oneof(
    fc.constantFrom('props', 'props.name', 'props.items', 'props.nested', 'this', 'process', 'globalThis', 'Function', 'item', '1', "'s'", 'null', '[]', '{}', 'undefined', 'NaN'),
  ),
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('atom'),
    fc.tuple(tie('expr'), fc.constantFrom('constructor', '__proto__', 'prototype', 'toString', 'valueOf', 'length', 'call', 'apply', 'bind', 'name', 'title', 'deep')).map(([e, p]) => `${e}.${p}`),
    fc.tuple(tie('expr'), fc.constantFrom("'constructor'", "'__proto__'", '`constructor`', "'con' + 'structor'", '0', 'props.name')).map(([e, p]) => `${e}[${p}]`),
    fc.tuple(tie('expr'), fc.constantFrom("'return process'", '', 'props')).map(([e, a]) => `${e}(${a})`),
    fc.tuple(fc.constantFrom('upper', 'dump', 'join', 'truncate', 'lower'), tie('expr')).map(([f, e]) => `${f}(${e})`),
    fc.tuple(tie('expr'), fc.constantFrom(' + ', ' ?? ', ' || ', ' && ', ' === ', ' ? 1 : '), tie('expr')).map(([a, op, b]) => `${a}${op}${b}`),
    tie('expr').map((e) => `\`\${${e}}\``),
    tie('expr').map((e) => `(${e})`),
  ),
})).expr;

describe('fuzzed expressions', () => {
  it('never reach globals or prototypes', async () => {
    await fc.assert(
      fc.asyncProperty(exprArb, async (expression) => {
        const body = `<User>{${expression}}</User>\n<User><ForEach arr={props.items}>{(item) => (<>{${expression}}</>)}</ForEach></User>\n`;
        await loadAndRender(`---\nname: x\ntext_config:\n  model_name: openai/gpt-4o-mini\n---\n${body}`, COMPONENT);
      }),
      { numRuns: RUNS, seed: SEED + 3 },
    );
  }, 120_000);
});

const VALID_LINES = [
  '{"input":{"name":"Ada","items":[{"title":"one"}]},"expected_output":"Hi Ada","tag":"a"}',
  '{"input":{"name":"Bob"},"output":"pre-generated","expected_output":{"ok":true}}',
  '{"input":{"name":"Émile \\u00e9 🙂"},"metadata":{"x":[1,2,3]}}',
];

async function readAll(lines: string | Buffer, withSchema: boolean): Promise<void> {
  const file = join(dir, `${fileNumber++}.jsonl`);
  await writeFile(file, lines);
  const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
  const input = typeof lines === 'string' ? lines : lines.toString('hex');
  try {
    await bounded('readDataset', async () => {
      let count = 0;
      for await (const row of readDataset(file, withSchema ? { inputSchema: schema } : {})) {
        expect(row.input).toBeTypeOf('object');
        expect(Object.getPrototypeOf(row.input) === Object.prototype || Object.getPrototypeOf(row.input) === null).toBe(true);
        count += 1;
      }
      return count;
    });
  } catch (error) {
    assertOwnError(error, input);
  }
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
}

describe('fuzzed dataset lines', () => {
  it('mutated JSONL lines are read, or rejected with an AgentmarkError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...VALID_LINES), fc.array(mutationArb, { maxLength: 4 })), { minLength: 1, maxLength: 5 }), fc.boolean(), async (lines, withSchema) => {
        await readAll(lines.map(([line, mutations]) => mutate(line, mutations)).join('\n'), withSchema);
      }),
      { numRuns: RUNS, seed: SEED + 4 },
    );
  }, 120_000);

  it('arbitrary JSON values and random bytes as rows are read, or rejected with an AgentmarkError', async () => {
    const rowArb = fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.jsonValue().map((value) => JSON.stringify({ input: value })),
      fc.dictionary(fc.constantFrom('input', '__proto__', 'constructor', 'expected_output', 'output', 'name'), fc.jsonValue()).map((value) => JSON.stringify(value)),
      fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.boolean(), async (rows, withSchema, asBytes) => {
        const text = rows.join('\n');
        await readAll(asBytes ? Buffer.from(text, 'latin1') : text, withSchema);
      }),
      { numRuns: RUNS, seed: SEED + 5 },
    );
  }, 120_000);
});
