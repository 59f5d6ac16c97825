export { readRateLimitHeaders, durationMs, type LimitReading, type RateLimitReading } from './rate-limit-headers.js';
export { RateLimiter, RateLimitWaitError, type Permit, type RateCaps } from './rate-limiter.js';
export { rateLimiterFor, modelFamily } from './limiters.js';
export { RateStats } from './rate-stats.js';
export { estimateTokens } from './estimate-tokens.js';
export { isQuotaExceeded } from './quota.js';
