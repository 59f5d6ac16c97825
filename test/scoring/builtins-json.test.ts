import { describe, expect, it } from 'vitest';
import { builtin, run } from './fixtures.js';

describe('json_valid', () => {
  it('passes on JSON text and on objects, fails on other text', async () => {
    expect(await run('json_valid', {}, { output: '{"a":1}' })).toEqual({ passed: true, score: 1, reason: 'output is valid JSON' });
    expect(await run('json_valid', {}, { output: { a: 1 } })).toEqual({ passed: true, score: 1, reason: 'output is structured JSON' });
    const failed = await run('json_valid', {}, { output: 'not json' });
    expect(failed.passed).toBe(false);
    expect(failed.reason).toMatch(/^output is not valid JSON: Unexpected token/);
  });
  it('takes no options', async () => {
    const error = (await builtin('json_valid', { strict: true }).catch((e: unknown) => e)) as { message: string; hint: string };
    expect(error.message).toBe('eval "e": invalid options for built-in "json_valid": must NOT have additional properties (strict)');
    expect(error.hint).toBe('json_valid takes no options');
  });
});

describe('json_schema', () => {
  const schema = {
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'number' } },
    required: ['name', 'age'],
  };
  // A backtracking engine takes hours on this pattern, far past the test's timeout; the time
  // RE2 takes is the bench's (bounds: hostile patterns).
  it('checks `pattern` in linear time and refuses what RE2 cannot match', async () => {
    const hostile = { type: 'object', properties: { id: { type: 'string', pattern: '(a+)+$' } } };
    expect(await run('json_schema', { schema: hostile }, { output: JSON.stringify({ id: `${'a'.repeat(40)}!` }) })).toEqual({
      passed: false,
      score: 0,
      reason: '1 schema violation: /id must match pattern "(a+)+$"',
    });
    const lookahead = { type: 'object', properties: { id: { type: 'string', pattern: '^(?=x)' } } };
    const error = (await builtin('json_schema', { schema: lookahead }).catch((e: unknown) => e)) as { code: string; hint: string };
    expect(error.code).toBe('EVAL_INVALID_OPTIONS');
    expect(error.hint).toMatch(/^lookaround .* are not supported: user patterns use RE2 syntax/);
  });
  it('validates against its own schema and lists every violation', async () => {
    expect(await run('json_schema', { schema }, { output: '{"name":"Ann","age":3}' })).toEqual({
      passed: true,
      score: 1,
      reason: 'output matches the schema',
    });
    expect(await run('json_schema', { schema }, { output: { age: 'three' } })).toEqual({
      passed: false,
      score: 0,
      reason: "2 schema violations: (root) must have required property 'name'; /age must be number",
    });
    expect((await run('json_schema', { schema }, { output: '{oops' })).reason).toMatch(/^output is not valid JSON/);
  });
  it("falls back to the prompt's object_config.schema", async () => {
    expect((await run('json_schema', {}, { output: { name: 'Ann', age: 1 } }, { promptSchema: schema })).passed).toBe(true);
    expect((await run('json_schema', {}, { output: { name: 'Ann' } }, { promptSchema: schema })).reason).toBe(
      "1 schema violation: (root) must have required property 'age'",
    );
  });
  it('without any schema is a binding error', async () => {
    const error = (await builtin('json_schema', {}).catch((e: unknown) => e)) as { code: string; message: string };
    expect(error.code).toBe('EVAL_INVALID_OPTIONS');
    expect(error.message).toBe('eval "e": json_schema has no schema');
  });
  it('an invalid schema is a binding error', async () => {
    await expect(builtin('json_schema', { schema: { type: 'nonsense' } })).rejects.toThrow(/^eval "e": invalid JSON Schema: /);
    await expect(builtin('json_schema', { schema: 'x' })).rejects.toThrow(
      'eval "e": invalid options for built-in "json_schema": /schema must be object',
    );
  });
});

describe('json_fields', () => {
  const expectedOutput = { name: 'Ann', city: 'Oslo', tags: ['a', 'b'], age: 30 };
  it('scores the fraction of matching fields', async () => {
    expect(await run('json_fields', {}, { output: { ...expectedOutput }, expectedOutput })).toEqual({
      passed: true,
      score: 1,
      reason: '4/4 fields match',
    });
    expect(await run('json_fields', {}, { output: '{"name":"Ann","tags":["a","b"],"age":31}', expectedOutput })).toEqual({
      passed: false,
      score: 0.5,
      reason: '2/4 fields match; mismatched: city (missing), age',
    });
  });
  it('limits to the given fields and honours a threshold', async () => {
    expect((await run('json_fields', { fields: ['name', 'tags'] }, { output: { name: 'Ann', tags: ['a', 'b'] }, expectedOutput })).passed).toBe(true);
    expect((await run('json_fields', { threshold: 0.5 }, { output: { name: 'Ann', tags: ['a', 'b'] }, expectedOutput })).passed).toBe(true);
  });
  it('fails a non-object output, errors on a non-object expected output', async () => {
    expect(await run('json_fields', {}, { output: '[1]', expectedOutput })).toEqual({ passed: false, score: 0, reason: 'output is not a JSON object' });
    await expect(run('json_fields', {}, { output: {}, expectedOutput: 'x' })).rejects.toThrow(/^expected_output is not valid JSON/);
    await expect(run('json_fields', {}, { output: {} })).rejects.toThrow('json_fields needs expected_output on the row');
  });
  it('rejects a threshold outside 0..1', async () => {
    await expect(builtin('json_fields', { threshold: 2 })).rejects.toThrow('/threshold must be <= 1');
  });
});
