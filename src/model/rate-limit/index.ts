export { readRateLimitHeaders, durationMs, type LimitReading, type RateLimitReading } from './rate-limit-headers.js';
export { RateLimiter } from './rate-limiter.js';
export { RateLimitWaitError, type Permit, type RateCaps } from './permit.js';
export { rateLimiterFor, modelFamily } from './limiters.js';
export { RateStats } from './rate-stats.js';
export { estimateTokens } from './estimate-tokens.js';
export { isQuotaExceeded } from './quota.js';
