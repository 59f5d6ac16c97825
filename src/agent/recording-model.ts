import type { LanguageModelMiddleware } from 'ai';
import { ModelCallError } from '../errors/index.js';
import { attemptGuard, rateGate, costOf, toModelCallError, type AiSdk, type AttemptLog, type ModelResponse, type TokenUsage } from '../model/index.js';
import { agentCacheKey } from './agent-cache-key.js';
import type { CallLog } from './call-log.js';
import type { LanguageModelV3, LanguageModelV3GenerateResult } from './model-types.js';
import type { AgentTransport } from './transport.js';

export interface RecordingScope {
  log: CallLog;
  repeat: number;
  /** The row's signal: a call the agent made without its own signal still stops with the row. */
  signal: AbortSignal;
  /** Per HTTP attempt. */
  timeoutMs: number;
  /** Called when a call goes to the model (the cache did not answer it). */
  onLive?: () => void;
  now: () => number;
}

/** The parts of the `ai` package this needs, loaded by the caller (models are made synchronously). */
export type RecordingSdk = AiSdk;

/** What the cache stores for an agent's call: the provider's answer, replayed as it came. */
interface StoredAnswer {
  content: LanguageModelV3GenerateResult['content'];
  finishReason: LanguageModelV3GenerateResult['finishReason'];
  usage: LanguageModelV3GenerateResult['usage'];
}

/**
 * `modelName` as an AI SDK model whose every call goes through the run's response cache, the
 * attempt guard (per-attempt timeout, retries, circuit breaker) and the row's call log. Streaming
 * is simulated from one generate call, so a streamed call is cached and replayed the same way.
 * The provider's model is resolved on the first call the cache cannot answer, so `--cache-only`
 * needs no key.
 */
export function recordingModel(modelName: string, transport: AgentTransport, scope: RecordingScope, ai: RecordingSdk): LanguageModelV3 {
  const slash = modelName.indexOf('/');
  let resolved: Promise<LanguageModelV3> | undefined;
  const provider = async (): Promise<LanguageModelV3> => {
    resolved ??= transport.registry.resolve(modelName).then((model) => {
      if (typeof model === 'string' || model.specificationVersion !== 'v3') {
        throw new ModelCallError('MODEL_PROVIDER', `the provider for "${modelName}" did not return an AI SDK v6 language model object`);
      }
      return model;
    });
    return resolved;
  };
  const base: LanguageModelV3 = {
    specificationVersion: 'v3',
    provider: slash === -1 ? 'agentmark' : modelName.slice(0, slash),
    modelId: slash === -1 ? modelName : modelName.slice(slash + 1),
    supportedUrls: {},
    doGenerate: async (params) => (await provider()).doGenerate(params),
    doStream: async (params) => (await provider()).doStream(params),
  };
  const recorder: LanguageModelMiddleware = {
    specificationVersion: 'v3',
    wrapGenerate: async ({ model, params }) => {
      const { log, now } = scope;
      log.addPrompt(params.prompt);
      const key = agentCacheKey(modelName, params, scope.repeat);
      log.started();
      try {
        if (transport.mode !== 'off') {
          const hit = await transport.cache.get(key);
          const stored = hit === undefined ? undefined : storedAnswer(hit.output);
          if (hit !== undefined && stored !== undefined) {
            log.addCall({ model: modelName, usage: hit.usage, ...(hit.costUsd === undefined ? {} : { costUsd: hit.costUsd }), latencyMs: hit.latencyMs, attempts: 0, cached: true });
            log.addAnswer(stored.content);
            return { ...stored, warnings: [] };
          }
          if (transport.mode === 'only') {
            throw new ModelCallError('MODEL_CACHE_MISS', `${modelName}: no cached response for this agent call (--cache-only)`, {
              hint: 'run once without --cache-only to record it; a changed prompt, setting, tool or repeat count changes the key',
            });
          }
        }
        scope.onLive?.();
        const started = now();
        const attempts: AttemptLog = { failures: 0 };
        const guard = attemptGuard(
          {
            timeoutMs: scope.timeoutMs,
            maxRetries: transport.maxRetries,
            retryDelayMs: 1000,
            random: Math.random,
            ...(transport.health === undefined ? {} : { health: transport.health }),
            ...(transport.rateLimit === undefined ? {} : { rate: rateGate(modelName, transport.registry, transport.rateLimit) }),
          },
          attempts,
        );
        const signal = params.abortSignal ?? scope.signal;
        const guarded = { ...params, abortSignal: signal };
        let result: LanguageModelV3GenerateResult;
        try {
          result = (await guard.wrapGenerate?.({ model, params: guarded, doGenerate: () => model.doGenerate(guarded), doStream: () => model.doStream(guarded) })) as LanguageModelV3GenerateResult;
        } catch (error) {
          throw toModelCallError(error, { modelName, attempts: attempts.failures + 1, signal, redact: transport.registry.redact }, ai);
        }
        const usage = tokenUsage(result.usage);
        const costUsd = costOf(modelName, usage, transport.prices);
        const latencyMs = now() - started;
        const answer: StoredAnswer = { content: result.content, finishReason: result.finishReason, usage: result.usage };
        const response: ModelResponse = {
          output: answer as unknown as Record<string, unknown>,
          toolCalls: [],
          usage,
          finishReason: result.finishReason.unified,
          latencyMs,
          costUsd,
          cached: false,
          retries: attempts.failures,
        };
        // Before the row is appended, as for prompt rows (see cachedCall).
        const queued = transport.cache.queue(key, response);
        if (queued !== undefined) await queued;
        log.addCall({ model: modelName, usage, ...(costUsd === undefined ? {} : { costUsd }), latencyMs, attempts: attempts.failures + 1, cached: false });
        log.addAnswer(result.content);
        return result;
      } finally {
        log.ended();
      }
    },
  };
  return ai.wrapLanguageModel({ model: base, middleware: [ai.simulateStreamingMiddleware(), recorder] });
}

function storedAnswer(output: ModelResponse['output']): StoredAnswer | undefined {
  if (output === null || typeof output !== 'object' || Array.isArray(output)) return undefined;
  const answer = output as Partial<StoredAnswer>;
  return Array.isArray(answer.content) && answer.finishReason !== undefined && answer.usage !== undefined ? (answer as StoredAnswer) : undefined;
}

function tokenUsage(usage: LanguageModelV3GenerateResult['usage']): TokenUsage {
  const inputTokens = usage.inputTokens.total ?? 0;
  const outputTokens = usage.outputTokens.total ?? 0;
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}
