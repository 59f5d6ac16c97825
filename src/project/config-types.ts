import type { LanguageModel, Tool } from 'ai';
import type { UserFilter } from '../prompt/filters.js';
import type { Scorer } from '../scoring/types.js';
import type { SuiteHooks } from './hook-types.js';
import type { AgentFunction } from '../agent/types.js';

/** Price of a model in USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Batch API prices (`run-experiment --batch`). @default half of `input` / `output` */
  batchInput?: number;
  batchOutput?: number;
}

/** What `agentmark.config.ts` exports (default export, or a named `config` export). */
export interface AgentmarkConfig {
  /** Code scorers by eval name; a prompt's `test_settings.evals` binds to them by name. */
  scorers?: Record<string, Scorer>;
  /** Tools by name, for `text_config.tools`. */
  tools?: Record<string, Tool>;
  /** Model factories by provider: `openai/gpt-4o` calls `providers.openai('gpt-4o')`. */
  providers?: Record<string, (modelId: string) => LanguageModel>;
  /** Prices by `provider/model`, in USD per million tokens, for cost reporting. */
  prices?: Record<string, ModelPrice>;
  /**
   * Caps on what runs may use of each provider's key, by provider prefix, below the limit its
   * headers state (a key shared with production traffic): `{ openai: { rpm: 500, tpm: 200000 } }`.
   * `--rpm`/`--tpm` add a cap on every provider.
   */
  rateLimit?: Record<string, RateLimitCap>;
  /** Base URL for the built-in OpenAI-compatible provider (e.g. a proxy or local server). */
  baseURL?: string;
  /** `provider/model` used by LLM-judge scorers. */
  judgeModel?: string;
  /**
   * Template filters by name, called in prompt bodies like the built-ins: `{shout(props.x, 2)}`
   * calls `filters.shout(props.x, 2)`. Synchronous; a name of a built-in replaces it.
   */
  filters?: Record<string, UserFilter>;
  /**
   * Agents by name: user code that runs a row (loads prompts, calls models, runs tools) and returns
   * its answer. A prompt picks one with `test_settings.agent`; `run-experiment --agent` overrides it.
   */
  agents?: Record<string, AgentFunction>;
  /** Suite hooks: `setup`, `teardown`, `beforeAll`, `afterAll`, `onFail` (see `SuiteHooks`). */
  hooks?: SuiteHooks;
  /**
   * Export every run (`run-experiment`, `rerun`, `score`) as an OpenTelemetry trace, as `--otel`
   * does. Its fields win over the `OTEL_EXPORTER_OTLP_*` variables; the flags win over it.
   */
  otel?: OtelConfig;
}

/** One provider's `rateLimit` entry. */
export interface RateLimitCap {
  /** Requests a minute. */
  rpm?: number;
  /** Tokens a minute (prompt and answer). */
  tpm?: number;
}

/** The config's `otel: { … }` (see docs/otel.md). */
export interface OtelConfig {
  /** `false` keeps the export off unless `--otel` is given. @default true */
  enabled?: boolean;
  /** Base OTLP/HTTP endpoint; `/v1/traces` is appended. */
  endpoint?: string;
  /** @default 'http/protobuf' */
  protocol?: 'http/protobuf' | 'http/json';
  /** Sent with every export (an API key, say); never printed. */
  headers?: Record<string, string>;
  /** How long the end of a run waits for queued spans. @default 5 */
  timeoutSeconds?: number;
  /** Put inputs, outputs and tool arguments on the spans. @default false */
  content?: boolean;
  /** One trace per run, or one per row linked to the run's (`--otel-trace-per`). @default 'run' */
  tracePer?: 'run' | 'row';
}

/** The config's fields as loaded, plus where they came from so watch mode can watch them. */
export interface LoadedConfig extends AgentmarkConfig {
  /** Absolute path of the config file; undefined when the project has none. */
  path: string | undefined;
  /** The config file and every project-local module it imports, transitively (absolute paths). */
  files: string[];
  /**
   * The project's AgentMark client (`agentmark.client.*`) when its scorers were looked for
   * (`loadConfig(…, { client: true })`); `error` says why it could not be loaded.
   */
  client?: { path: string; error?: string | undefined };
  /** Things to tell the user about the config and the client (a scorer defined in both, a client that failed). */
  warnings?: string[];
}

/** Keys `defineConfig` knows; anything else is reported, since it is most likely a typo. */
export const CONFIG_KEYS = ['scorers', 'tools', 'providers', 'prices', 'baseURL', 'judgeModel', 'filters', 'hooks', 'agents', 'otel', 'rateLimit'] as const satisfies ReadonlyArray<
  keyof AgentmarkConfig
>;
