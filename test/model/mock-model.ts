import { MockLanguageModelV3 } from 'ai/test';
import { createProviderRegistry, type ProviderRegistry } from '../../src/model/index.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type Content = GenerateResult['content'];

/** One model answer in the AI SDK's provider shape. */
export function answer(content: Content, finish: 'stop' | 'tool-calls' | 'length' = 'stop', tokens = { input: 10, output: 5 }): GenerateResult {
  return {
    content,
    finishReason: { unified: finish, raw: finish },
    usage: {
      inputTokens: { total: tokens.input, noCache: tokens.input, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: tokens.output, text: tokens.output, reasoning: undefined },
    },
    warnings: [],
  };
}

export const text = (value: string): Content => [{ type: 'text', text: value }];

/** A registry whose `mock/<id>` models are the given mock. */
export function mockRegistry(model: MockLanguageModelV3): ProviderRegistry {
  return createProviderRegistry({ providers: { mock: () => model }, env: {} });
}
