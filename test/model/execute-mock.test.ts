import { jsonSchema, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { checkTools, executeModelRequest, type ModelRequest } from '../../src/model/index.js';
import { answer, mockRegistry, text } from './mock-model.js';

const base: ModelRequest = {
  modelName: 'mock/model',
  kind: 'text',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
  ],
  settings: { temperature: 0.5, maxOutputTokens: 50, topP: 0.9, seed: 3, stopSequences: ['END'] },
};

/** A clock that advances 25 ms per reading, so latency is exact. */
function steppingClock(): () => number {
  let t = 1000;
  return () => (t += 25);
}

describe('executeModelRequest with a mock model', () => {
  it('answers a text prompt and passes the settings and messages through', async () => {
    const model = new MockLanguageModelV3({ doGenerate: answer(text('Hello!'), 'stop', { input: 12, output: 3 }) });
    const response = await executeModelRequest(base, { registry: mockRegistry(model), now: steppingClock() });
    expect(response).toEqual({
      output: 'Hello!',
      toolCalls: [],
      usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 },
      finishReason: 'stop',
      latencyMs: 25,
      costUsd: undefined,
      cached: false,
      retries: 0,
    });
    const call = model.doGenerateCalls[0];
    expect(call).toMatchObject({ temperature: 0.5, maxOutputTokens: 50, topP: 0.9, seed: 3, stopSequences: ['END'] });
    expect(call?.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    ]);
  });

  it('answers an object prompt with the frontmatter schema as JSON schema', async () => {
    const schema = { type: 'object', properties: { sentiment: { type: 'string' } }, required: ['sentiment'] };
    const model = new MockLanguageModelV3({ doGenerate: answer(text('{"sentiment":"positive"}')) });
    const request: ModelRequest = { ...base, kind: 'object', schema, schemaName: 'Sentiment', schemaDescription: 'the mood' };
    const response = await executeModelRequest(request, { registry: mockRegistry(model) });
    expect(response.output).toEqual({ sentiment: 'positive' });
    expect(model.doGenerateCalls[0]?.responseFormat).toEqual({ type: 'json', schema, name: 'Sentiment', description: 'the mood' });
  });

  it('fails an object prompt whose answer is not JSON with MODEL_INVALID_OUTPUT', async () => {
    const model = new MockLanguageModelV3({ doGenerate: answer(text('not json')) });
    const request: ModelRequest = { ...base, kind: 'object', schema: { type: 'object' } };
    await expect(executeModelRequest(request, { registry: mockRegistry(model) })).rejects.toMatchObject({
      code: 'MODEL_INVALID_OUTPUT',
      retryable: false,
    });
  });

  it('runs tool round trips up to max_calls and records every call with its result or error', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        answer(
          [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: '{"city":"Oslo"}' },
            { type: 'tool-call', toolCallId: 'c2', toolName: 'broken', input: '{}' },
          ],
          'tool-calls',
          { input: 20, output: 8 },
        ),
        answer(text('It is 4°C in Oslo.'), 'stop', { input: 30, output: 6 }),
      ],
    });
    const tools = {
      weather: tool({
        description: 'Weather by city',
        inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } } }),
        execute: async ({ city }) => ({ city, celsius: 4 }),
      }),
      broken: tool({
        inputSchema: jsonSchema<Record<string, never>>({ type: 'object' }),
        execute: async (): Promise<string> => {
          throw new Error('service down');
        },
      }),
    };
    const request: ModelRequest = { ...base, tools: ['weather', 'broken'], toolChoice: 'auto', maxCalls: 2 };
    const response = await executeModelRequest(request, { registry: mockRegistry(model), tools });
    expect(response.output).toBe('It is 4°C in Oslo.');
    expect(response.toolCalls).toEqual([
      { name: 'weather', args: { city: 'Oslo' }, result: { city: 'Oslo', celsius: 4 } },
      { name: 'broken', args: {}, error: 'service down' },
    ]);
    expect(response.usage).toEqual({ inputTokens: 50, outputTokens: 14, totalTokens: 64 });
    expect(response.finishReason).toBe('stop');
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(model.doGenerateCalls[0]?.toolChoice).toEqual({ type: 'auto' });
    expect(model.doGenerateCalls[0]?.tools?.map((t) => t.name)).toEqual(['weather', 'broken']);
  });

  it('stops after max_calls steps (default 1) even when the model wants more tools', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: answer([{ type: 'tool-call', toolCallId: 'c1', toolName: 'echo', input: '{"v":1}' }], 'tool-calls'),
    });
    const tools = { echo: tool({ inputSchema: jsonSchema<{ v: number }>({ type: 'object' }), execute: async ({ v }) => v }) };
    const response = await executeModelRequest({ ...base, tools: ['echo'] }, { registry: mockRegistry(model), tools });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(response.output).toBe('');
    expect(response.toolCalls).toEqual([{ name: 'echo', args: { v: 1 }, result: 1 }]);
    expect(response.finishReason).toBe('tool-calls');
  });

  it('rejects an unknown tool name before calling the model, listing the registered tools', async () => {
    const model = new MockLanguageModelV3({ doGenerate: answer(text('x')) });
    const tools = { weather: tool({ inputSchema: jsonSchema({ type: 'object' }), execute: async () => 1 }) };
    const request: ModelRequest = { ...base, tools: ['wether'] };
    const error = await executeModelRequest(request, { registry: mockRegistry(model), tools }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ code: 'CONFIG_UNKNOWN_TOOL', message: 'unknown tool "wether" (registered tools: weather)', hint: 'did you mean "weather"?' });
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(() => checkTools(['a'], {}, 'p.prompt.mdx')).toThrow('unknown tool "a" (no tools are registered)');
  });

  it('prices usage from the built-in table, and user prices win', async () => {
    const model = new MockLanguageModelV3({ doGenerate: answer(text('ok'), 'stop', { input: 1_000_000, output: 500_000 }) });
    const registry = mockRegistry(model);
    const request = { ...base, modelName: 'mock/gpt-4o-mini' };
    expect((await executeModelRequest(request, { registry })).costUsd).toBeCloseTo(0.15 + 0.3, 10);
    const custom = await executeModelRequest(request, { registry, prices: { 'mock/gpt-4o-mini': { input: 1, output: 2 } } });
    expect(custom.costUsd).toBeCloseTo(2, 10);
  });
});
