import { generateText, jsonSchema, Output } from 'ai';
import { describe, expect, it } from 'vitest';
import { ModelCallError } from '../../src/errors/index.js';
import { createProviderRegistry, executeModelRequest, type ModelRequest } from '../../src/model/index.js';
import { useOpenAIServer } from '../helpers/openai-server.js';

// Calls without tools or attachments skip generateText (src/model/direct-generate.ts). These
// tests hold them to what generateText itself sends and returns, against the same server.
const server = useOpenAIServer();

const text: ModelRequest = {
  modelName: 'openai/gpt-4o-mini',
  kind: 'text',
  messages: [
    { role: 'system', content: 'Echo.' },
    { role: 'user', content: [{ type: 'text', text: 'hello ' }, { type: 'text', text: 'there' }] },
    { role: 'assistant', content: 'hello there' },
    { role: 'user', content: 'again' },
  ],
  settings: { temperature: 0.5, maxOutputTokens: 20, topP: 0.9, presencePenalty: 0.1, frequencyPenalty: 0.2, stopSequences: ['END'], seed: 7 },
};

const schema = {
  type: 'object',
  properties: { echo: { type: 'string' }, count: { type: 'number' } },
  required: ['echo', 'count'],
  additionalProperties: false,
} as const;

describe.each([
  ['chat completions', 'chat'],
  ['responses API', 'responses'],
] as const)('a call without tools, through %s', (_label, openaiApi) => {
  const registry = () => createProviderRegistry({ baseURL: server.url, env: {}, openaiApi });

  async function sdkBody(options: Omit<Parameters<typeof generateText>[0], 'model' | 'prompt'>): Promise<unknown> {
    const model = await registry().resolve('openai/gpt-4o-mini');
    await generateText({ model, allowSystemInMessages: true, maxRetries: 0, ...options } as Parameters<typeof generateText>[0]);
    return server.requests.at(-1)?.body;
  }

  it('sends the request generateText sends and returns the same text and usage', async () => {
    const ours = await executeModelRequest(text, { registry: registry() });
    const sentByUs = server.requests.at(-1)?.body;
    const sentBySdk = await sdkBody({
      messages: [
        { role: 'system', content: 'Echo.' },
        { role: 'user', content: [{ type: 'text', text: 'hello ' }, { type: 'text', text: 'there' }] },
        { role: 'assistant', content: 'hello there' },
        { role: 'user', content: 'again' },
      ],
      ...text.settings,
    });
    expect(sentByUs).toEqual(sentBySdk);
    expect(ours).toMatchObject({ output: 'again', finishReason: 'stop', retries: 0, cached: false });
    // The server counts words of each `role: text` line: 2 + 3 + 3 + 2 in, "again" out.
    expect(ours.usage).toEqual({ inputTokens: 10, outputTokens: 1, totalTokens: 11 });
  });

  it('sends an object request as generateText with Output.object does, and parses the answer', async () => {
    const ours = await executeModelRequest({ ...text, messages: [{ role: 'user', content: 'hello there' }], kind: 'object', schema, schemaName: 'Echo', schemaDescription: 'An echo' }, { registry: registry() });
    const sentByUs = server.requests.at(-1)?.body;
    const sentBySdk = await sdkBody({
      messages: [{ role: 'user', content: 'hello there' }],
      ...text.settings,
      output: Output.object({ schema: jsonSchema(schema), name: 'Echo', description: 'An echo' }),
    });
    expect(sentByUs).toEqual(sentBySdk);
    expect(ours.output).toEqual({ echo: 'hello there', count: 0 });
  });

  it('an object answer that is not JSON is MODEL_INVALID_OUTPUT, as through generateText', async () => {
    server.setHandler(() => ({ text: 'not json' }));
    const error = await executeModelRequest({ ...text, kind: 'object', schema }, { registry: registry() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).code).toBe('MODEL_INVALID_OUTPUT');
  });
});
