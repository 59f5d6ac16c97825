/**
 * src/generated/ holds ajv validators compiled ahead of time from schema/*.schema.json by
 * scripts/compile-schemas.mjs. These tests fail when a schema (or ajv) changed without
 * regenerating them, and check the generated code reports exactly what ajv compiling the schema
 * at run time with the same options would.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateValidators, TARGETS } from '../../scripts/compile-schemas.mjs';
import { validateAgentmarkSchema } from '../../src/generated/agentmark-schema.validate.js';
import { validatePromptFrontmatterSchema } from '../../src/generated/prompt-frontmatter-schema.validate.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SEED = 20_240_611;
const RUNS = 1_000;

type Validate = typeof validateAgentmarkSchema;
const GENERATED: Record<string, Validate> = {
  validateAgentmarkSchema,
  validatePromptFrontmatterSchema,
};

function readCommitted(path: string): string | undefined {
  try {
    return readFileSync(new URL(path, `file://${ROOT}`), 'utf8');
  } catch {
    return undefined;
  }
}

describe('generated schema validators', () => {
  it('are up to date with schema/*.schema.json and the installed ajv', () => {
    const stale = generateValidators()
      .filter((file) => readCommitted(file.path) !== file.code)
      .map((file) => file.path);
    expect(stale, `stale generated validators (${stale.join(', ')}): run npm run schemas`).toEqual([]);
  });

  it('cover every target and are exported under the names the generator writes', () => {
    expect(TARGETS.map((target) => target.exportName).sort()).toEqual(Object.keys(GENERATED).sort());
  });
});

/** Values the schemas check often, plus strings whose length depends on counting code points. */
const scalar = fc.oneof(
  fc.constantFrom('', 'a', '\u{1F600}', '\uD800', 'categorical', 'boolean', 'numeric', '1.0', 'auto', 'tool', 'openai/gpt-4o-mini'),
  fc.constantFrom(0, 1, -1, 0.5, 1.5, 2, null, true, [], {}, ['a'], { type: 'tool', tool_name: 'x' }, [{ label: '', value: '1' }]),
  fc.string({ maxLength: 3 }),
  fc.double(),
);

/** Valid documents that use every part of their schema; mutations of them reach every keyword. */
const BASES: Record<string, unknown[]> = {
  'schema/agentmark.schema.json': [
    JSON.parse(readFileSync(new URL('agentmark.json', `file://${ROOT}`), 'utf8')) as unknown,
    { version: '2.0.0', evals: ['a'], scores: { c: { type: 'categorical', categories: [{ label: 'x', value: 1 }], options: {} } } },
  ],
  'schema/prompt-frontmatter.schema.json': [
    {
      name: 'p',
      text_config: {
        model_name: 'openai/gpt-4o-mini', max_tokens: 10, temperature: 0.2, top_p: 1, top_k: 3, presence_penalty: 0,
        frequency_penalty: 0, stop_sequences: ['x'], seed: 1, max_retries: 0, max_calls: 2,
        tool_choice: { type: 'tool', tool_name: 'lookup' }, tools: ['lookup'],
      },
      test_settings: { dataset: 'd.jsonl', evals: ['e'], props: {}, score_thresholds: { e: 0.5 }, experiment_key: 'k', regression_tolerance: 0.1 },
      input_schema: { type: 'object' },
    },
    {
      name: 'o',
      object_config: { model_name: 'm', max_tokens: 1, temperature: 0, top_p: 0.5, top_k: 1, stop_sequences: [], seed: 0, max_retries: 1, max_calls: 1, schema: {}, schema_name: 's', schema_description: 'd' },
      image_config: { model_name: 'i' },
      speech_config: { model_name: 's' },
      test_settings: { score_thresholds: {} },
    },
  ],
};

/** Every path inside a JSON value (the value itself included), objects' keys and arrays' indexes. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const found = [prefix];
  if (Array.isArray(value)) value.forEach((item, index) => found.push(...paths(item, [...prefix, index])));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) found.push(...paths(item, [...prefix, key]));
  }
  return found;
}

type Mutation = { at: number; action: 'replace' | 'delete' | 'add'; value: unknown };

/** A copy of `base` with each mutation applied at one of its paths (chosen by index). */
function mutate(base: unknown, mutations: Mutation[]): unknown {
  let doc = structuredClone(base);
  for (const { at, action, value } of mutations) {
    const all = paths(doc);
    const path = all[at % all.length] ?? [];
    if (path.length === 0) {
      if (action === 'replace') doc = structuredClone(value);
      continue;
    }
    let parent = doc as Record<string | number, unknown>;
    for (const part of path.slice(0, -1)) parent = parent[part] as Record<string | number, unknown>;
    const last = path[path.length - 1] as string | number;
    const target = parent[last];
    if (action === 'delete') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (action === 'add' && target !== null && typeof target === 'object') {
      if (Array.isArray(target)) target.push(structuredClone(value));
      else (target as Record<string, unknown>)['extra'] = structuredClone(value);
    } else parent[last] = structuredClone(value);
  }
  return doc;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  action: fc.constantFrom('replace', 'replace', 'delete', 'add'),
  value: scalar,
});

function inputs(schema: string): fc.Arbitrary<unknown> {
  const bases = BASES[schema] ?? [];
  return fc.oneof(
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...bases), fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([base, list]) => mutate(base, list)) },
  );
}

describe.each(TARGETS.map((target) => [target.schema, target] as const))('%s: generated validator', (_name, target) => {
  const schema = JSON.parse(readFileSync(new URL(target.schema, `file://${ROOT}`), 'utf8')) as object;
  const runtime = new Ajv(target.options).compile(schema);
  const generated = GENERATED[target.exportName];
  const input = inputs(target.schema);

  it('accepts the valid documents the comparison mutates', () => {
    for (const base of BASES[target.schema] ?? []) expect(generated?.(base), JSON.stringify(generated?.errors)).toBe(true);
  });

  it('reports the same errors as ajv compiling the schema at run time', () => {
    if (!generated) throw new Error(`no generated validator for ${target.schema}`);
    fc.assert(
      fc.property(input, (data) => {
        const expected = runtime(data);
        const expectedErrors = runtime.errors;
        expect(generated(data)).toBe(expected);
        expect(generated.errors).toEqual(expectedErrors);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
