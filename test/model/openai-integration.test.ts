import { jsonSchema, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { createProviderRegistry, executeModelRequest, type ModelRequest } from '../../src/model/index.js';
import { useOpenAIServer } from '../helpers/openai-server.js';

const server = useOpenAIServer();

const request: ModelRequest = {
  modelName: 'openai/gpt-4o-mini',
  kind: 'text',
  messages: [
    { role: 'system', content: 'Echo.' },
    { role: 'user', content: 'hello there' },
  ],
  settings: { temperature: 0, maxOutputTokens: 20 },
};

const weather = tool({
  description: 'Weather by city',
  inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
  execute: async ({ city }) => `${city}: 4C`,
});

describe.each([
  ['chat completions', 'chat', '/v1/chat/completions'],
  ['responses API', 'responses', '/v1/responses'],
] as const)('openai provider against the loopback server: %s', (_label, openaiApi, path) => {
  const registry = () => createProviderRegistry({ baseURL: server.url, env: {}, openaiApi });

  it('answers a text prompt, with usage and cost', async () => {
    const response = await executeModelRequest(request, { registry: registry() });
    expect(response.output).toBe('hello there');
    // the server counts words: "system: Echo.\nuser: hello there" in, "hello there" out
    expect(response.usage).toEqual({ inputTokens: 5, outputTokens: 2, totalTokens: 7 });
    expect(response.costUsd).toBeCloseTo((5 * 0.15 + 2 * 0.6) / 1e6, 15);
    expect(response.finishReason).toBe('stop');
    expect(response.retries).toBe(0);
    expect(server.requests.map((r) => r.path)).toEqual([path]);
    expect(server.requests[0]?.body.model).toBe('gpt-4o-mini');
  });

  it('answers an object prompt through structured output', async () => {
    const schema = {
      type: 'object',
      properties: { echo: { type: 'string' }, count: { type: 'number' } },
      required: ['echo', 'count'],
      additionalProperties: false,
    };
    const response = await executeModelRequest({ ...request, kind: 'object', schema, schemaName: 'Echo' }, { registry: registry() });
    expect(response.output).toEqual({ echo: 'hello there', count: 0 });
  });

  it('runs a tool round trip and records the call', async () => {
    server.setHandler((req) =>
      req.toolResults.length === 0
        ? { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }
        : { text: `The weather: ${req.toolResults.map((r) => r.output).join(', ')}` },
    );
    const response = await executeModelRequest(
      { ...request, tools: ['weather'], maxCalls: 2 },
      { registry: registry(), tools: { weather } },
    );
    expect(response.output).toBe('The weather: Oslo: 4C');
    expect(response.toolCalls).toEqual([{ name: 'weather', args: { city: 'Oslo' }, result: 'Oslo: 4C' }]);
    expect(server.requests).toHaveLength(2);
  });
});

describe('choosing the OpenAI API', () => {
  it('uses chat completions with a base URL and the responses API when forced', async () => {
    await executeModelRequest(request, { registry: createProviderRegistry({ env: { OPENAI_BASE_URL: server.url } }) });
    await executeModelRequest(request, { registry: createProviderRegistry({ baseURL: server.url, env: {}, openaiApi: 'responses' }) });
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/responses']);
  });

  it('sends the API key as a bearer token', async () => {
    let seen: string | undefined;
    server.setHandler((req) => {
      seen = req.authorization;
      return { text: 'ok' };
    });
    await executeModelRequest(request, { registry: createProviderRegistry({ baseURL: server.url, env: { OPENAI_API_KEY: 'sk-test-1' } }) });
    expect(seen).toBe('Bearer sk-test-1');
  });
});
