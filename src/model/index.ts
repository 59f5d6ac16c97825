export { requestFromRendered, callSettings, type RequestOverrides } from './request-from-rendered.js';
export {
  createProviderRegistry,
  splitModelName,
  type OpenAIApi,
  type ProviderFactory,
  type ProviderRegistry,
  type ProviderRegistryOptions,
} from './provider-registry.js';
export { executeModelRequest, rateGate, type ExecuteOptions, type RateLimitOptions } from './execute-model-request.js';
export { checkTools } from './check-tools.js';
export { ResponseCache, type CachedResponse } from './response-cache.js';
export { StoredResponseCache } from './stored-response-cache.js';
export { cachedCall, type CacheMode, type CachedCallOptions } from './cached-call.js';
export { BUILT_IN_PRICES, costOf, priceOf } from './prices.js';
export type { CallSettings, ModelPrice, ModelRequest, ModelResponse, TokenUsage, ToolCallRecord } from './types.js';
export { findUnreachableFailure, baseUrlOf, type ConnectionHealth, type UnreachableFailure } from './network-errors.js';
export { nodeFetch, useHttpThread, sendingFromThread, warmHttpThread } from './node-fetch.js';
export { attemptGuard, type AttemptLog, type AttemptPolicy } from './attempt-guard.js';
export { toModelCallError } from './model-call-error.js';
export { loadAiSdk, type AiSdk } from './ai-sdk.js';
export { RateStats, RateLimiter, readRateLimitHeaders, rateLimiterFor, type Permit, type RateCaps, type RateLimitReading } from './rate-limit/index.js';
export { embeddingRequest, executeEmbedding, type EmbeddingOptions } from './execute-embedding.js';
