import type { CacheMode, ConnectionHealth, ModelPrice, ProviderRegistry, RateLimitOptions, ResponseCache } from '../model/index.js';

/** What an agent's model calls go through: the run's cache, providers and call policy. */
export interface AgentTransport {
  cache: ResponseCache;
  mode: CacheMode;
  registry: ProviderRegistry;
  /** Per HTTP attempt (a row's `timeout_seconds` wins, see runAgentRow). */
  timeoutMs: number;
  maxRetries: number;
  prices: Record<string, ModelPrice>;
  /** The provider keys' rate limiters, shared with the run's other calls. */
  rateLimit?: RateLimitOptions;
  /** The run's circuit breaker. */
  health?: ConnectionHealth;
}
