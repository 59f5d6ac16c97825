import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { join, relative } from 'node:path';
import { UsageError } from '../errors/index.js';
import {
  cachedCall,
  checkTools,
  createProviderRegistry,
  embeddingRequest,
  executeEmbedding,
  executeModelRequest,
  requestFromRendered,
  ResponseCache,
  StoredResponseCache,
} from '../model/index.js';
import { sharedCacheUrl } from './shared-cache-url.js';
import { RateStats, type ConnectionHealth, type RateCaps } from '../model/index.js';
import type { AgentTransport } from '../agent/index.js';
import type { ModelRequest, ModelResponse } from '../model/types.js';
import type { LoadedPrompt, ModelSettings, RenderedPrompt } from '../prompt/types.js';
import { JudgeTally } from './judge-tally.js';
import type { RunExperimentOptions } from './options.js';
import { promptTimeoutMs } from './row-timeout.js';
import type { JudgeSpend, JudgeTransport } from './types.js';

export interface ModelCaller {
  modelName: string;
  settings: Record<string, unknown>;
  promptHash: string;
  toRequest: (rendered: RenderedPrompt) => ModelRequest;
  /**
   * `timeoutMs` overrides the prompt's per-call timeout (a row's own `timeout_seconds`);
   * `onLive` is called when the call goes to the model, i.e. the cache did not answer it.
   */
  call: (request: ModelRequest, repeat: number, signal: AbortSignal, timeoutMs?: number, onLive?: () => void) => Promise<ModelResponse>;
  /** Like `call`, through the same cache, with `live` answering a miss instead of an HTTP call (`--batch`). */
  callWith: (request: ModelRequest, repeat: number, live: () => Promise<ModelResponse>) => Promise<ModelResponse>;
  /** The prompt's per-call timeout: --timeout, else test_settings.timeout_seconds, else 60 s. */
  timeoutMs: number;
  /** What a config agent's model calls go through: the same cache, providers, retries and breaker. */
  transport: AgentTransport;
  /** The run's 429s and waits for the rate limit (main, judge and agent calls). */
  rateStats: RateStats;
  /** Writes the cache's queued answers and releases its open files; call when the run ends. */
  close: () => Promise<void>;
  /** Judge calls share the cache, retries and timeout of the main calls. */
  judge: (request: ModelRequest) => Promise<ModelResponse>;
  /** An embedding (the `similar` scorer): cached like a model call, its spend counted as a judge call's. */
  embed: (modelName: string, text: string) => Promise<number[]>;
  /** Runs `fn` with judge calls that miss the cache answered by `live` instead of an HTTP call (`--batch`). */
  judgeWith: <T>(live: JudgeTransport, fn: () => Promise<T>) => Promise<T>;
  /** Runs `fn` (a row's evals) and adds up the judge answers its calls received. */
  meterJudges: <T>(fn: () => Promise<T>) => Promise<[T, JudgeSpend | undefined]>;
}

/** Wires the provider registry, the response cache and the run's call options together. */
export async function createModelCaller(options: RunExperimentOptions, prompt: LoadedPrompt, health?: ConnectionHealth): Promise<ModelCaller> {
  const { project, config } = options;
  const frontmatterConfig: ModelSettings | undefined = prompt.frontmatter.text_config ?? prompt.frontmatter.object_config;
  if (!frontmatterConfig) {
    throw new UsageError('USAGE_UNSUPPORTED_PROMPT', 'this prompt has no text_config or object_config to run', {
      location: { file: relative(project.root, prompt.path) },
    });
  }
  const modelName = options.model ?? frontmatterConfig.model_name;
  checkTools(prompt.frontmatter.text_config?.tools ?? [], config.tools ?? {}, prompt.path);

  const registry = createProviderRegistry({
    providers: config.providers ?? {},
    ...(config.baseURL ? { baseURL: config.baseURL } : {}),
    env: options.env ?? process.env,
    projectRoot: project.root,
  });
  // A model given with --model need not be in builtInModels (comparing models is the point), but
  // one that no provider serves is an input error before any call.
  if (options.model) registry.ensure(options.model, `--model ${options.model}`);
  // So is a prompt's provider whose package is not installed, unless every answer is replayed.
  else if ((options.cacheMode ?? 'use') !== 'only') registry.ensure(modelName, `model_name "${modelName}"`);
  let cacheWarned = false;
  const cacheDir = options.cacheDir ?? join(project.root, '.agentmark', 'cache');
  const onCacheError = (error: unknown): void => {
    // Said once: the rows go on (their answers were paid for), only replaying them will not work.
    if (cacheWarned) return;
    cacheWarned = true;
    const reason = error instanceof Error ? error.message : String(error);
    void options.onEvent?.({
      type: 'warning',
      message: `answers are not being cached: ${reason} (make ${relative(project.root, cacheDir) || '.'} a writable folder; rows still run, reruns will call the model again)`,
    });
  };
  const storeUrl = sharedCacheUrl(project, options.env ?? process.env);
  const cache = storeUrl === undefined
    ? new ResponseCache(cacheDir, onCacheError, project.replayDir)
    : new StoredResponseCache(cacheDir, onCacheError, project.replayDir, () => import('../store/open-answer-store.js').then(({ openAnswerStore }) => openAnswerStore(storeUrl)), (error) => {
        const reason = error instanceof Error ? error.message : String(error);
        void options.onEvent?.({ type: 'warning', message: `the shared cache in the store is not used: ${reason} (answers are cached in ${relative(project.root, cacheDir) || '.'} only)` });
      });
  const mode = options.cacheMode ?? 'use';
  // With --no-cache every row needs the model: a missing key or unknown provider is a set-up
  // error before the run starts, not the same error on every row.
  if (mode === 'off') await registry.resolve(modelName);
  const rateStats = new RateStats((paced) => void options.onEvent?.({ type: 'paced', paced }));
  const callOptions = {
    registry,
    rateLimit: { concurrency: options.concurrency ?? 20, caps: rateCaps(options, config.rateLimit), stats: rateStats },
    tools: config.tools ?? {},
    timeoutMs: promptTimeoutMs(options, prompt),
    maxRetries: options.maxRetries ?? frontmatterConfig.max_retries ?? 3,
    prices: config.prices ?? {},
    ...(health === undefined ? {} : { health }),
  };
  const call = (request: ModelRequest, repeat: number, signal: AbortSignal, timeoutMs?: number, onLive?: () => void): Promise<ModelResponse> =>
    cachedCall(request, { cache, mode, repeat }, () => {
      onLive?.();
      return executeModelRequest(request, { ...callOptions, ...(timeoutMs === undefined ? {} : { timeoutMs }), signal });
    });

  // Evals are bound once with `judge`; a batch pass swaps what answers a miss per row, and the
  // choice travels with the row's async work (its evals run inside it).
  const judgeTransports = new AsyncLocalStorage<JudgeTransport>();
  const judgeSignal = options.signal ?? new AbortController().signal;
  // Like the transport, the tally of a row's judge answers travels with its evals' async work.
  const judgeTallies = new AsyncLocalStorage<JudgeTally>();
  const judge = async (request: ModelRequest): Promise<ModelResponse> => {
    const live = judgeTransports.getStore();
    const response = await (live === undefined ? call(request, 0, judgeSignal) : cachedCall(request, { cache, mode, repeat: 0 }, () => live(request)));
    const paid = response.cached && live?.owns?.(request) === true ? { ...response, cached: false } : response;
    judgeTallies.getStore()?.addResponse(paid);
    return paid;
  };

  const embed = async (modelName: string, text: string): Promise<number[]> => {
    const request = embeddingRequest(modelName, text);
    const response = await cachedCall(request, { cache, mode, repeat: 0 }, () =>
      executeEmbedding(request, { registry, timeoutMs: callOptions.timeoutMs, maxRetries: callOptions.maxRetries, prices: callOptions.prices, signal: judgeSignal }),
    );
    judgeTallies.getStore()?.addResponse(response);
    const vector = response.output;
    if (!Array.isArray(vector) || !vector.every((x): x is number => typeof x === 'number')) throw new Error(`${modelName}: the embedding answer is not a list of numbers`);
    return vector;
  };

  const { model_name: _model, max_retries: _retries, ...settings } = frontmatterConfig as ModelSettings & Record<string, unknown>;
  return {
    modelName,
    settings,
    promptHash: createHash('sha256').update(prompt.source).digest('hex'),
    toRequest: (rendered) => requestFromRendered(rendered, options.model ? { model: options.model } : {}),
    call,
    callWith: (request, repeat, live) => cachedCall(request, { cache, mode, repeat }, live),
    timeoutMs: callOptions.timeoutMs,
    transport: {
      cache,
      mode,
      registry,
      timeoutMs: callOptions.timeoutMs,
      maxRetries: callOptions.maxRetries,
      prices: callOptions.prices,
      rateLimit: callOptions.rateLimit,
      ...(health === undefined ? {} : { health }),
    },
    rateStats,
    close: () => cache.close(),
    judge,
    embed,
    judgeWith: (live, fn) => judgeTransports.run(live, fn),
    meterJudges: async (fn) => {
      const tally = new JudgeTally();
      const value = await judgeTallies.run(tally, fn);
      return [value, tally.spend()];
    },
  };
}

/** The user's caps: `--rpm`/`--tpm` on every provider, the config's `rateLimit` per provider. */
function rateCaps(options: RunExperimentOptions, fromConfig: Record<string, { rpm?: number; tpm?: number }> | undefined): Record<string, RateCaps> {
  const caps: Record<string, RateCaps> = {};
  const flags = options.rateLimit;
  if (flags?.rpm !== undefined || flags?.tpm !== undefined) {
    caps['*'] = { ...flags, by: flags.rpm !== undefined ? '--rpm' : '--tpm' };
  }
  for (const [provider, limit] of Object.entries(fromConfig ?? {})) caps[provider] = { ...limit, by: `rateLimit.${provider} in the config` };
  return caps;
}
