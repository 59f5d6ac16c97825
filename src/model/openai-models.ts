import openaiPackage from '@ai-sdk/openai/package.json' with { type: 'json' };
import type { EmbeddingModel, LanguageModel } from 'ai';

/**
 * The `@ai-sdk/openai` provider's chat and responses models, built from its model classes with
 * the configuration `createOpenAI` gives them, except that the request headers are worked out
 * once instead of on every call: `createOpenAI`'s header function rebuilds them through a web
 * `Headers` object per request (~15 µs, the largest single cost of the provider on a fast
 * server). The headers sent are the same (test/model/provider-registry.test.ts compares them
 * with a provider made by `createOpenAI`).
 */
export interface OpenAIModels {
  chat(modelId: string): LanguageModel;
  responses(modelId: string): LanguageModel;
  /** `/v1/embeddings` (the `similar` scorer). */
  embedding(modelId: string): EmbeddingModel;
}

export async function openaiModels(options: { apiKey: string; baseURL: string | undefined; fetch: typeof fetch }): Promise<OpenAIModels> {
  const { OpenAIChatLanguageModel, OpenAIResponsesLanguageModel, OpenAIEmbeddingModel } = await import('@ai-sdk/openai/internal');
  const baseURL = (options.baseURL ?? 'https://api.openai.com/v1').replace(/\/$/, '');
  // What createOpenAI's header function returns: lower-cased names, the provider's user agent.
  const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}`, 'user-agent': `ai-sdk/openai/${openaiPackage.version}` };
  const config = (api: 'chat' | 'responses' | 'embedding') => ({
    provider: `openai.${api}`,
    url: ({ path }: { path: string }) => `${baseURL}${path}`,
    // A copy per call, as createOpenAI's: the provider may add to what it is given.
    headers: () => ({ ...headers }),
    fetch: options.fetch,
  });
  return {
    chat: (modelId) => new OpenAIChatLanguageModel(modelId, config('chat')),
    responses: (modelId) => new OpenAIResponsesLanguageModel(modelId, { ...config('responses'), fileIdPrefixes: ['file-'] }),
    embedding: (modelId) => new OpenAIEmbeddingModel(modelId, config('embedding')),
  };
}
