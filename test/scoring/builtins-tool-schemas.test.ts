import { jsonSchema, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolCallRecord } from '../../src/model/types.js';
import { builtin, run } from './fixtures.js';

// get_weather's schema comes from zod through the AI SDK; add's is plain JSON Schema.
const tools = {
  get_weather: tool({ description: 'Weather of a city', inputSchema: z.object({ city: z.string(), unit: z.enum(['c', 'f']).optional() }) }),
  add: tool({ description: 'Adds', inputSchema: jsonSchema({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }) }),
};
const extra = { tools, promptTools: ['get_weather', 'add'] };
const call = (name: string, args: unknown): ToolCallRecord => ({ name, args });
const check = (toolCalls: ToolCallRecord[], options: Record<string, unknown> = {}) => run('is_valid_tools_call', options, { toolCalls }, extra);

describe('is_valid_tools_call', () => {
  // Valid or not per call as Python's jsonschema 4.26 (Draft7Validator) judges the same
  // arguments against the same schemas (zod's printed by asSchema): true, false, false, false,
  // true, false, true.
  it.each([
    [call('get_weather', { city: 'Paris' }), true],
    [call('get_weather', { city: 3 }), false],
    [call('get_weather', { unit: 'k' }), false],
    [call('get_weather', { city: 'Rome', country: 'IT' }), false],
    [call('add', { a: 1, b: 2 }), true],
    [call('add', { a: '1', b: 2 }), false],
    [call('add', '{"a":1.5,"b":-2}'), true],
  ])('%j valid: %s (as jsonschema says)', async (one, valid) => {
    expect((await check([one])).passed).toBe(valid);
  });

  it('names each invalid call and what is wrong; the score is the share of valid calls', async () => {
    expect(await check([call('get_weather', { city: 'Paris' }), call('add', { a: '1', b: 2 }), call('get_weather', { unit: 'k' }), call('search', {})])).toEqual({
      passed: false,
      score: 0.25,
      reason:
        '3 of 4 tool calls invalid: add: /a must be number | get_weather: (root) must have required property \'city\'; /unit must be equal to one of the allowed values: "c", "f" | search: not a tool of this prompt (tools: get_weather, add)',
    });
    expect(await check([call('get_weather', { city: 'Paris' }), call('add', { a: 1, b: 2 })])).toEqual({ passed: true, score: 1, reason: '2 tool calls, all valid: get_weather, add' });
  });

  it('arguments that are not JSON, and an answer without tool calls (unless allowNone)', async () => {
    expect(await check([call('add', '{"a":')])).toEqual({ passed: false, score: 0, reason: '1 of 1 tool call invalid: add: arguments are not valid JSON: "{\\"a\\":"' });
    expect(await check([])).toEqual({ passed: false, score: 0, reason: 'the answer made no tool call' });
    expect(await check([], { allowNone: true })).toEqual({ passed: true, score: 1, reason: 'no tool calls (allowNone)' });
  });

  it('options.tools gives or replaces a tool\'s schema (promptfoo tools without code)', async () => {
    const options = { tools: { lookup: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } } };
    expect(await run('is_valid_tools_call', options, { toolCalls: [call('lookup', { id: 2.5 })] })).toEqual({ passed: false, score: 0, reason: '1 of 1 tool call invalid: lookup: /id must be integer' });
    expect((await run('is_valid_tools_call', options, { toolCalls: [call('lookup', { id: 7 })] })).passed).toBe(true);
  });

  it('binding fails without any tool, or on a schema that does not compile', async () => {
    await expect(builtin('is_valid_tools_call')).rejects.toThrow('eval "e": is_valid_tools_call has no tools to check calls against');
    await expect(builtin('is_valid_tools_call', { tools: { x: { type: 'nope' } } })).rejects.toThrow(/the JSON Schema of options\.tools\.x does not compile: schema is invalid/);
  });
});

describe('icontains', () => {
  it('is contains ignoring case, with a reason either way', async () => {
    expect(await run('icontains', { value: 'PARIS' }, { output: 'I love paris' })).toEqual({ passed: true, score: 1, reason: 'output contains "PARIS" (ignoring case)' });
    expect(await run('icontains', {}, { output: 'Lyon', expectedOutput: 'paris' })).toEqual({ passed: false, score: 0, reason: 'output does not contain "paris" (ignoring case)' });
    await expect(builtin('icontains', { ignoreCase: false })).rejects.toThrow(/invalid options for built-in "icontains": must NOT have additional properties/);
  });
});
