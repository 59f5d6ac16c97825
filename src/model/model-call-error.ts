import { isAgentmarkError, ModelCallError, type AgentmarkError } from '../errors/index.js';
import { AttemptTimeoutError, QuotaExceededError, RetryBudgetExhaustedError } from './attempt-guard.js';
import { RateLimitWaitError } from './rate-limit/index.js';
import { findConnectionFailure } from './network-errors.js';

import type { AiSdk as Ai } from './ai-sdk.js';

export interface FailureContext {
  modelName: string;
  /** Attempts made, including the failed last one. */
  attempts: number;
  /** The caller's signal; when it aborted, the call was cancelled, not failed. */
  signal: AbortSignal | undefined;
  /** Removes secrets (the API key) from text. */
  redact: (text: string) => string;
}

/**
 * Turns whatever a model call threw into one ModelCallError with a stable code, the status code
 * when the server answered, and whether trying again later could help.
 */
export function toModelCallError(error: unknown, context: FailureContext, ai: Ai): AgentmarkError {
  if (isAgentmarkError(error)) return error;
  const { modelName, redact } = context;
  const after = context.attempts > 1 ? ` (after ${context.attempts} attempts)` : '';
  const make = (code: `MODEL_${string}`, message: string, retryable: boolean, statusCode?: number): ModelCallError =>
    new ModelCallError(code, redact(`${modelName}: ${message}`), { retryable, statusCode, cause: error });

  if (context.signal?.aborted) return make('MODEL_ABORTED', 'the call was cancelled', false);
  const failure = unwrap(error, ai);
  if (failure instanceof AttemptTimeoutError) return make('MODEL_TIMEOUT', `${failure.message}${after}`, true);
  if (failure instanceof RateLimitWaitError) return make('MODEL_RATE_LIMITED', `rate limited: ${failure.message}, past --timeout`, true, 429);
  if (failure instanceof QuotaExceededError) {
    const cause = failure.failure as { message?: unknown };
    return make('MODEL_QUOTA_EXCEEDED', `HTTP 429 quota exceeded: ${typeof cause.message === 'string' ? cause.message : failure.message}`, false, 429);
  }
  if (ai.APICallError.isInstance(failure) && failure.statusCode !== undefined && failure.statusCode >= 400) {
    const status = failure.statusCode;
    const [code, label] = describeStatus(status);
    return make(code, `HTTP ${status} ${label}: ${failure.message}${after}`, failure.isRetryable, status);
  }
  const connection = findConnectionFailure(failure);
  if (connection !== undefined) return make('MODEL_CONNECTION_FAILED', `connection failed: ${connection.message}${after}`, true);
  if (ai.NoObjectGeneratedError.isInstance(failure) || ai.NoOutputGeneratedError.isInstance(failure)) {
    return make('MODEL_INVALID_OUTPUT', `the model's answer did not match the schema: ${failure.message}`, false);
  }
  if (ai.APICallError.isInstance(failure)) return make('MODEL_API_ERROR', `${failure.message}${after}`, failure.isRetryable);
  const message = failure instanceof Error ? failure.message : String(failure);
  return make('MODEL_CALL_FAILED', `${message}${after}`, false);
}

/** The error that actually ended the call, under the SDK's and our retry wrappers. */
function unwrap(error: unknown, ai: Ai): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    if (ai.RetryError.isInstance(current)) current = current.lastError;
    else if (current instanceof RetryBudgetExhaustedError) current = current.failure;
    else return current;
  }
  return current;
}

function describeStatus(status: number): [`MODEL_${string}`, string] {
  if (status === 429) return ['MODEL_RATE_LIMITED', 'rate limited'];
  if (status === 401 || status === 403) return ['MODEL_AUTH_FAILED', 'not authorised'];
  if (status === 404) return ['MODEL_NOT_FOUND', 'not found'];
  if (status === 408) return ['MODEL_TIMEOUT', 'request timeout'];
  if (status >= 500) return ['MODEL_SERVER_ERROR', 'server error'];
  return ['MODEL_REQUEST_REJECTED', 'request rejected'];
}
