import type { LanguageModel, LanguageModelUsage, Tool, ToolChoice as SdkToolChoice, ToolSet } from 'ai';
import { ConfigError } from '../errors/index.js';
import type { ToolChoice } from '../prompt/types.js';
import { attemptGuard, type AttemptLog, type AttemptPolicy } from './attempt-guard.js';
import { checkTools, pickTools } from './check-tools.js';
import { toModelCallError } from './model-call-error.js';
import type { ConnectionHealth } from './network-errors.js';
import { directGenerate, guardedModel, plainPrompt, responseInfo } from './direct-generate.js';
import { toModelMessages } from './model-messages.js';
import { costOf } from './prices.js';
import type { ProviderRegistry } from './provider-registry.js';
import { collectToolCalls } from './tool-calls.js';
import type { ModelPrice, ModelRequest, ModelResponse, ResponseInfo, TokenUsage } from './types.js';
import { loadAiSdk } from './ai-sdk.js';
import { rateLimiterFor, type RateCaps, type RateStats } from './rate-limit/index.js';

export interface ExecuteOptions {
  registry: ProviderRegistry;
  /** Tools registered in the project's config, by name. */
  tools?: Record<string, Tool>;
  /** Per HTTP request, not per call. @default 60000 */
  timeoutMs?: number;
  /** Failed attempts that may be retried, whatever the failure. @default 3 */
  maxRetries?: number;
  /** The caller's cancel (Ctrl-C); never retried. */
  signal?: AbortSignal;
  /** USD per million tokens, merged over the built-in table. */
  prices?: Record<string, ModelPrice>;
  /** @default Date.now */
  now?: () => number;
  /** First backoff wait after a timeout or dropped connection; doubles each retry. @default 1000 */
  retryDelayMs?: number;
  /** Jitter source in [0, 1). @default Math.random */
  random?: () => number;
  /** Told whether each HTTP attempt reached the server (the runner's circuit breaker listens). */
  health?: ConnectionHealth;
  /**
   * Pace the call by the rate limit of its provider key and model family, shared by every call of
   * the process that passes this (live runs, judges, agents; a batch job's requests do not).
   */
  rateLimit?: RateLimitOptions;
}

export interface RateLimitOptions {
  /** The most requests in flight the limiter may widen to (`--concurrency`). */
  concurrency: number;
  /** The user's caps by provider prefix; `*` applies to every provider. */
  caps?: Readonly<Record<string, RateCaps>>;
  /** The run's tally of 429s and waits, and its "paced" listener. */
  stats?: RateStats;
}

/**
 * Runs one model call: a text prompt (with tool round trips) or an object prompt, with per-request
 * timeouts and retries, and returns the answer with usage, latency and cost.
 * Failures are ModelCallErrors; an unknown tool is a ConfigError.
 */
export async function executeModelRequest(request: ModelRequest, options: ExecuteOptions): Promise<ModelResponse> {
  checkTools(request, options.tools);
  const now = options.now ?? Date.now;
  const maxRetries = options.maxRetries ?? 3;
  const log: AttemptLog = { failures: 0 };
  const started = now();
  const model = await options.registry.resolve(request.modelName);
  if (typeof model === 'string' || model.specificationVersion !== 'v3') {
    throw new ConfigError('CONFIG_PROVIDER_MODEL', `the provider for "${request.modelName}" did not return an AI SDK v6 language model object`, {
      hint: 'a provider factory must return a LanguageModelV3, e.g. createOpenAI(...).chat(id)',
    });
  }
  const middleware = attemptGuard(
    {
      timeoutMs: options.timeoutMs ?? 60_000,
      maxRetries,
      retryDelayMs: options.retryDelayMs ?? 1000,
      random: options.random ?? Math.random,
      ...(options.health === undefined ? {} : { health: options.health }),
      ...(options.rateLimit === undefined ? {} : { rate: rateGate(request.modelName, options.registry, options.rateLimit) }),
    },
    log,
  );
  const tools: ToolSet = pickTools(request, options.tools);
  const hasTools = Object.keys(tools).length > 0;
  // Most calls are one request and one answer: those skip generateText (see directGenerate).
  const direct = hasTools ? undefined : plainPrompt(request.messages);
  const common = (guarded: LanguageModel) => ({
    model: guarded,
    messages: toModelMessages(request.messages),
    // The prompt author writes the system message; it is not untrusted input.
    allowSystemInMessages: true,
    // The guard owns every retry (attemptGuard), for direct calls and these alike.
    maxRetries: 0,
    ...(options.signal === undefined ? {} : { abortSignal: options.signal }),
    ...request.settings,
  });

  try {
    if (direct !== undefined) {
      const result = await directGenerate(guardedModel(model, middleware), direct, request, options.signal);
      return finish(result.output, [], result.usage, result.finishReason, result.response);
    }
    const ai = await loadAiSdk();
    const guarded = ai.wrapLanguageModel({ model, middleware });
    if (request.kind === 'object') {
      const result = await ai.generateText({
        ...common(guarded),
        output: ai.Output.object({
          schema: ai.jsonSchema(request.schema as Parameters<typeof ai.jsonSchema>[0]),
          ...(request.schemaName === undefined ? {} : { name: request.schemaName }),
          ...(request.schemaDescription === undefined ? {} : { description: request.schemaDescription }),
        }),
      });
      return finish(result.output as ModelResponse['output'], [], result.totalUsage, result.finishReason, responseInfo(result.response.id, result.response.modelId).response);
    }
    const result = await ai.generateText({
      ...common(guarded),
      ...(hasTools ? { tools, stopWhen: ai.stepCountIs(request.maxCalls ?? 1) } : {}),
      ...(hasTools && request.toolChoice !== undefined ? { toolChoice: sdkToolChoice(request.toolChoice) } : {}),
    });
    return finish(result.text, collectToolCalls(result.steps), result.totalUsage, result.finishReason, responseInfo(result.response.id, result.response.modelId).response);
  } catch (error) {
    throw toModelCallError(
      error,
      { modelName: request.modelName, attempts: log.failures, signal: options.signal, redact: options.registry.redact },
      await loadAiSdk(),
    );
  }

  function finish(output: ModelResponse['output'], toolCalls: ModelResponse['toolCalls'], sdkUsage: LanguageModelUsage, finishReason: string, response?: ResponseInfo): ModelResponse {
    const usage = tokenUsage(sdkUsage);
    return {
      output,
      toolCalls,
      usage,
      finishReason,
      latencyMs: now() - started,
      costUsd: costOf(request.modelName, usage, options.prices),
      cached: false,
      retries: log.failures,
      ...(response ? { response } : {}),
    };
  }
}

/** The limiter of the model's key, widened to the caller's concurrency and held to its caps. */
export function rateGate(modelName: string, registry: ProviderRegistry, options: RateLimitOptions): NonNullable<AttemptPolicy['rate']> {
  const key = registry.limitKey?.(modelName) ?? modelName;
  const limiter = rateLimiterFor(key);
  limiter.widen(options.concurrency);
  const caps = options.caps;
  if (caps !== undefined) {
    const all = caps['*'];
    const own = caps[modelName.slice(0, modelName.indexOf('/'))];
    if (all !== undefined) limiter.cap(all);
    if (own !== undefined) limiter.cap(own);
  }
  return { limiter, ...(options.stats === undefined ? {} : { stats: options.stats }) };
}

function tokenUsage(usage: LanguageModelUsage): TokenUsage {
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  return { inputTokens, outputTokens, totalTokens: usage.totalTokens ?? inputTokens + outputTokens };
}

function sdkToolChoice(choice: ToolChoice): SdkToolChoice<ToolSet> {
  return typeof choice === 'string' ? choice : { type: 'tool', toolName: choice.tool_name };
}
