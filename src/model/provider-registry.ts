import type { EmbeddingModel, LanguageModel } from 'ai';
import { createHash } from 'node:crypto';
import { ModelCallError, UsageError } from '../errors/index.js';
import { findInstalledPackage, KNOWN_PROVIDERS, loadInstalledProvider, providerPackageName } from './installed-provider.js';
import { nodeFetch } from './node-fetch.js';
import { openaiModels as loadOpenAIModels, type OpenAIModels } from './openai-models.js';
import { guessProvider } from './guess-provider.js';
import { modelFamily } from './rate-limit/limiters.js';

/** Builds a model for the part of `provider/model` after the slash. */
export type ProviderFactory = (modelId: string) => LanguageModel;

/** Which OpenAI endpoint `openai/...` models use. */
export type OpenAIApi = 'auto' | 'chat' | 'responses';

export interface ProviderRegistryOptions {
  /** Providers registered in the project's config, by prefix; they win over built-in ones. */
  providers?: Record<string, ProviderFactory>;
  /** Base URL of an OpenAI-compatible server; `OPENAI_BASE_URL` in `env` wins over it. */
  baseURL?: string;
  /** @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Handed to the OpenAI provider (tests, proxies). */
  fetch?: typeof fetch;
  /**
   * `auto` uses chat completions when a base URL is set, because OpenAI-compatible servers
   * (Ollama, vLLM, LiteLLM) mostly speak only that, and the responses API otherwise.
   * @default 'auto'
   */
  openaiApi?: OpenAIApi;
  /**
   * The user's project: a prefix with no registered provider is served by `@ai-sdk/<prefix>`
   * when that package is installed there (resolved from this folder up). Without it, only
   * `openai` and the registered providers are known.
   */
  projectRoot?: string;
}

export interface ProviderRegistry {
  /** The model for `provider/model`. Throws UsageError for a bad name, ModelCallError without a key. */
  resolve(modelName: string): Promise<LanguageModel>;
  /**
   * The embedding model for `provider/model` (the `similar` scorer). OpenAI's (and an
   * OpenAI-compatible server's at the base URL) only: a registered provider is a factory of
   * language models. Throws UsageError for another provider, ModelCallError without a key.
   */
  resolveEmbedding?(modelName: string): Promise<EmbeddingModel>;
  /** Known provider prefixes, sorted. */
  readonly prefixes: readonly string[];
  /** Replaces secrets the registry holds (the API key) in text meant for people or files. */
  redact(text: string): string;
  /**
   * Throws the UsageError `resolve` would for a provider it cannot serve (unknown, or its
   * package not installed), without loading anything; `shown` names the model in the message.
   */
  ensure(modelName: string, shown?: string): void;
  /**
   * Names the rate limit a model's calls count against: provider, base URL, a hash of the key
   * and the model family (see model/rate-limit/limiters.ts). Calls with the same name share one
   * limiter in the process.
   */
  limitKey?(modelName: string): string;
}

export function createProviderRegistry(options: ProviderRegistryOptions = {}): ProviderRegistry {
  const env = options.env ?? process.env;
  const custom = options.providers ?? {};
  const prefixes = [...new Set(['openai', ...Object.keys(custom)])].sort();
  const apiKey = nonEmpty(env.OPENAI_API_KEY);
  const baseURL = nonEmpty(env.OPENAI_BASE_URL) ?? nonEmpty(options.baseURL);
  let openai: Promise<OpenAIModels> | undefined;
  // One model object per id for the whole run: they hold no per-call state.
  const openaiModels = new Map<string, LanguageModel>();
  const installed = new Map<string, Promise<ProviderFactory>>();
  // An installed provider's folder and models, found and built once per run: looking the
  // package up on disk and rebuilding its model on every call cost ~50 µs a row.
  const folders = new Map<string, string>();
  const installedModels = new Map<string, LanguageModel>();
  const limitKeys = new Map<string, string>();

  function openaiProvider(modelId: string): Promise<OpenAIModels> {
    if (apiKey === undefined && baseURL === undefined) {
      throw new ModelCallError('MODEL_NO_API_KEY', `no OpenAI API key for "openai/${modelId}"`, {
        hint: 'set OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server), or run with the recorded cache (--cache-only)',
      });
    }
    openai ??= loadOpenAIModels({
      // Local OpenAI-compatible servers take no key, but the provider refuses to run without one.
      apiKey: apiKey ?? 'no-key',
      baseURL,
      fetch: options.fetch ?? nodeFetch,
    });
    return openai;
  }

  async function openaiModel(modelId: string): Promise<LanguageModel> {
    const provider = await openaiProvider(modelId);
    let model = openaiModels.get(modelId);
    if (model === undefined) {
      const api = options.openaiApi ?? 'auto';
      const useChat = api === 'chat' || (api === 'auto' && baseURL !== undefined);
      model = useChat ? provider.chat(modelId) : provider.responses(modelId);
      openaiModels.set(modelId, model);
    }
    return model;
  }

  /** The installed package's folder for a prefix, or the UsageError saying what to do. */
  function packageFolder(provider: string, modelName: string, shown: string): string {
    const known = folders.get(provider);
    if (known !== undefined) return known;
    const packageName = providerPackageName(provider);
    const folder = packageName === undefined || options.projectRoot === undefined ? undefined : findInstalledPackage(options.projectRoot, packageName);
    if (folder !== undefined) {
      folders.set(provider, folder);
      return folder;
    }
    const listed = KNOWN_PROVIDERS[provider];
    if (listed !== undefined) {
      throw new UsageError('USAGE_PROVIDER_NOT_INSTALLED', `${shown} needs the AI SDK provider package ${listed.packageName}, which is not installed in this project`, {
        hint: `run \`npm install ${listed.packageName}@${listed.major}\` in the project (major ${listed.major} is the one that works with ai 6), or register the provider under \`providers\` in agentmark.config.ts`,
      });
    }
    throw new UsageError('USAGE_UNKNOWN_PROVIDER', `unknown provider "${provider}" in ${shown} (known: ${prefixes.join(', ')})`, {
      hint: 'register the provider under `providers` in agentmark.config.ts',
    });
  }

  return {
    prefixes,
    async resolve(modelName) {
      const { provider, modelId } = splitModelName(modelName, prefixes);
      const factory = Object.hasOwn(custom, provider) ? custom[provider] : undefined;
      if (factory !== undefined) return factory(modelId);
      if (provider === 'openai') return openaiModel(modelId);
      const built = installedModels.get(modelName);
      if (built !== undefined) return built;
      const folder = packageFolder(provider, modelName, `model "${modelName}"`);
      let loaded = installed.get(provider);
      if (loaded === undefined) {
        // Imported on first use only, from the user's project, so no provider slows start-up.
        loaded = loadInstalledProvider(provider, folder, options.fetch ?? nodeFetch);
        installed.set(provider, loaded);
      }
      const model = (await loaded)(modelId);
      installedModels.set(modelName, model);
      return model;
    },
    async resolveEmbedding(modelName) {
      const { provider, modelId } = splitModelName(modelName, prefixes);
      if (provider !== 'openai' || Object.hasOwn(custom, provider)) {
        throw new UsageError('USAGE_NO_EMBEDDINGS', `embedding model "${modelName}": embeddings are served by the openai provider only (an OpenAI-compatible server at OPENAI_BASE_URL included)`, {
          hint: 'use an openai/… embedding model, e.g. openai/text-embedding-3-small, pointed at a compatible server with OPENAI_BASE_URL if need be',
        });
      }
      return (await openaiProvider(modelId)).embedding(modelId);
    },
    ensure(modelName, shown = `model "${modelName}"`) {
      const { provider } = splitModelName(modelName, prefixes);
      if (Object.hasOwn(custom, provider) || provider === 'openai') return;
      packageFolder(provider, modelName, shown);
    },
    limitKey(modelName) {
      let key = limitKeys.get(modelName);
      if (key === undefined) {
        const { provider, modelId } = splitModelName(modelName, prefixes);
        const variable = provider.toUpperCase().replace(/[^A-Z0-9]/g, '_');
        // A registered provider's key is in its own code: the prefix is what there is to go by.
        const [where, secret] = Object.hasOwn(custom, provider)
          ? ['config', undefined]
          : provider === 'openai'
            ? [baseURL ?? 'api.openai.com', apiKey]
            : [nonEmpty(env[`${variable}_BASE_URL`]) ?? 'default', nonEmpty(env[`${variable}_API_KEY`])];
        const keyHash = secret === undefined ? 'no-key' : createHash('sha256').update(secret).digest('hex').slice(0, 16);
        key = `${provider}|${where}|${keyHash}|${modelFamily(modelId)}`;
        limitKeys.set(modelName, key);
      }
      return key;
    },
    redact(text) {
      return apiKey === undefined ? text : text.split(apiKey).join('[redacted]');
    },
  };
}

/** `openai/gpt-4o` → `{ provider: 'openai', modelId: 'gpt-4o' }`; model ids may contain more slashes. */
export function splitModelName(modelName: string, knownPrefixes: readonly string[] = ['openai']): { provider: string; modelId: string } {
  const slash = modelName.indexOf('/');
  if (slash <= 0 || slash === modelName.length - 1) {
    const provider = slash < 0 ? guessProvider(modelName) : undefined;
    throw new UsageError('USAGE_MODEL_NAME', `model "${modelName}" is not of the form provider/model (known providers: ${knownPrefixes.join(', ')})`, {
      hint: provider === undefined ? 'write e.g. model_name: openai/gpt-4o-mini' : `did you mean "${provider}/${modelName}"?`,
    });
  }
  return { provider: modelName.slice(0, slash), modelId: modelName.slice(slash + 1) };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

