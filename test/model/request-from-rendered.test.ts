import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors/index.js';
import { requestFromRendered } from '../../src/model/index.js';
import type { RenderedPrompt } from '../../src/prompt/types.js';

const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'Hi' },
];

describe('requestFromRendered', () => {
  it('maps every text_config setting to the AI SDK name', () => {
    const rendered: RenderedPrompt = {
      name: 'greet',
      messages,
      test_settings: {},
      text_config: {
        model_name: 'openai/gpt-4o-mini',
        max_tokens: 100,
        temperature: 0.2,
        top_p: 0.9,
        top_k: 40,
        presence_penalty: 0.1,
        frequency_penalty: 0.3,
        stop_sequences: ['END'],
        seed: 7,
        max_retries: 5,
        max_calls: 3,
        tools: ['lookup'],
        tool_choice: { type: 'tool', tool_name: 'lookup' },
      },
    };
    expect(requestFromRendered(rendered)).toEqual({
      modelName: 'openai/gpt-4o-mini',
      kind: 'text',
      messages,
      settings: {
        maxOutputTokens: 100,
        temperature: 0.2,
        topP: 0.9,
        topK: 40,
        presencePenalty: 0.1,
        frequencyPenalty: 0.3,
        stopSequences: ['END'],
        seed: 7,
      },
      tools: ['lookup'],
      toolChoice: { type: 'tool', tool_name: 'lookup' },
      maxCalls: 3,
    });
  });

  it('leaves unset settings out, so defaults never enter the cache key', () => {
    const rendered: RenderedPrompt = { name: 'p', messages, test_settings: {}, text_config: { model_name: 'openai/gpt-4o' } };
    expect(requestFromRendered(rendered)).toEqual({ modelName: 'openai/gpt-4o', kind: 'text', messages, settings: {} });
  });

  it('maps object_config with its schema, and applies a model override', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const rendered: RenderedPrompt = {
      name: 'extract',
      messages,
      test_settings: {},
      object_config: { model_name: 'openai/gpt-4o', temperature: 0, schema, schema_name: 'Answer', schema_description: 'the answer' },
    };
    expect(requestFromRendered(rendered, { model: 'openai/gpt-4.1-nano' })).toEqual({
      modelName: 'openai/gpt-4.1-nano',
      kind: 'object',
      messages,
      settings: { temperature: 0 },
      schema,
      schemaName: 'Answer',
      schemaDescription: 'the answer',
    });
  });

  it.each([
    ['image', { image_config: { model_name: 'openai/dall-e-3' } }],
    ['speech', { speech_config: { model_name: 'openai/tts-1' } }],
  ] as const)('refuses %s prompts with a UsageError', (kind, config) => {
    const rendered = { name: 'pic', test_settings: {}, ...config } as unknown as RenderedPrompt;
    const error = captureError(() => requestFromRendered(rendered));
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ code: 'USAGE_UNSUPPORTED_PROMPT' });
    expect((error as Error).message).toBe(`"pic" is an ${kind} prompt; ${kind} prompts are not run by this tool`);
  });
});

function captureError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
