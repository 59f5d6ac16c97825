import { ModelCallError } from '../errors/index.js';
import type { ProviderRegistry } from './provider-registry.js';
import { costOf } from './prices.js';
import type { ModelPrice, ModelRequest, ModelResponse } from './types.js';

export interface EmbeddingOptions {
  registry: ProviderRegistry;
  /** Per call, retries included. @default 60000 */
  timeoutMs?: number;
  /** The AI SDK's own retries (with its backoff) of a failed call. @default 2 */
  maxRetries?: number;
  prices?: Record<string, ModelPrice>;
  signal?: AbortSignal;
  now?: () => number;
}

/** The request `similar` embeds a text with: the text is its one user message (the cache key's input). */
export function embeddingRequest(modelName: string, text: string): ModelRequest {
  return { modelName, kind: 'embedding', messages: [{ role: 'user', content: text }], settings: {} };
}

/**
 * One call of the AI SDK's `embed` for an `embedding` request, answered as a ModelResponse so
 * that it goes through the response cache and the run's spend like a judge call: the vector is
 * the output, the input tokens the usage, priced by the model's price.
 */
export async function executeEmbedding(request: ModelRequest, options: EmbeddingOptions): Promise<ModelResponse> {
  const now = options.now ?? Date.now;
  const started = now();
  const message = request.messages[0];
  const value = typeof message?.content === 'string' ? message.content : '';
  const resolve = options.registry.resolveEmbedding;
  if (resolve === undefined) throw new ModelCallError('MODEL_NO_EMBEDDINGS', `${request.modelName}: this provider registry serves no embedding models`, { retryable: false });
  const model = await resolve(request.modelName);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  const { embed } = await import('ai');
  try {
    const result = await embed({ model, value, maxRetries: options.maxRetries ?? 2, abortSignal: signal });
    const usage = { inputTokens: result.usage.tokens, outputTokens: 0, totalTokens: result.usage.tokens };
    return { output: result.embedding, toolCalls: [], usage, finishReason: 'stop', latencyMs: now() - started, costUsd: costOf(request.modelName, usage, options.prices), cached: false, retries: 0 };
  } catch (error) {
    const reason = options.registry.redact(error instanceof Error ? error.message : String(error));
    if (timeout.aborted && options.signal?.aborted !== true) throw new ModelCallError('MODEL_TIMEOUT', `${request.modelName}: the embedding call timed out after ${options.timeoutMs ?? 60_000} ms`, { retryable: true, cause: error });
    throw new ModelCallError('MODEL_EMBEDDING_FAILED', `${request.modelName}: embedding failed: ${reason}`, { retryable: false, cause: error });
  }
}
