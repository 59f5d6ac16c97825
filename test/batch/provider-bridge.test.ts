import { describe, expect, it } from 'vitest';
import { ProviderBridge } from '../../src/batch/provider-bridge.js';
import type { ModelRequest } from '../../src/model/types.js';

const request: ModelRequest = {
  modelName: 'openai/gpt-4o-mini',
  kind: 'object',
  messages: [
    { role: 'system', content: 'Extract.' },
    { role: 'user', content: 'two apples' },
  ],
  settings: { temperature: 0, maxOutputTokens: 50 },
  schema: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'], additionalProperties: false },
  schemaName: 'order',
};

describe('the provider bridge (no network: nothing listens at these URLs)', () => {
  it('without a base URL captures the responses API request the live path would send to api.openai.com', async () => {
    const bridge = new ProviderBridge({ baseURL: 'https://api.openai.com/v1', baseURLSet: false, env: {}, tools: {}, prices: {} });
    const { endpoint, body } = await bridge.capture(request);
    expect(endpoint).toBe('/v1/responses');
    expect(body).toMatchObject({
      model: 'gpt-4o-mini',
      temperature: 0,
      max_output_tokens: 50,
      input: [
        { role: 'system', content: 'Extract.' },
        { role: 'user', content: [{ type: 'input_text', text: 'two apples' }] },
      ],
      text: { format: { type: 'json_schema', name: 'order', strict: true } },
    });
  });

  it('with a base URL captures the chat completions request, and reads a batch answer as the live path would', async () => {
    const bridge = new ProviderBridge({ baseURL: 'http://127.0.0.1:9/v1', baseURLSet: true, env: {}, tools: {}, prices: {} });
    const { endpoint, body } = await bridge.capture(request);
    expect(endpoint).toBe('/v1/chat/completions');
    expect(body).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 50, response_format: { type: 'json_schema', json_schema: { name: 'order' } } });
    const answer = await bridge.answer(request, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, message: { role: 'assistant', content: '{"item":"apple"}' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
    });
    expect(answer).toMatchObject({ output: { item: 'apple' }, usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 }, finishReason: 'stop' });
    // An answer that breaks the schema fails as it would live.
    await expect(
      bridge.answer(request, {
        id: 'chatcmpl-2',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-4o-mini',
        choices: [{ index: 0, message: { role: 'assistant', content: 'not json' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    ).rejects.toMatchObject({ code: 'MODEL_INVALID_OUTPUT' });
  });
});
