import type { RowFilter } from '../dataset/row-filter.js';
import type { RowSelection } from '../dataset/types.js';
import type { LoadedConfig } from '../project/index.js';
import type { Project } from '../project/types.js';
import type { LoadedPrompt } from '../prompt/types.js';
import type { FileFingerprint } from '../store/types.js';
import type { ShardSpec } from '../shard/index.js';
import type { RunListener } from './events.js';

export type CacheMode = 'use' | 'off' | 'only';

/** Everything one experiment run takes. Only `project`, `config` and `promptPath` are required. */
export interface RunExperimentOptions {
  project: Project;
  config: LoadedConfig;
  /** Absolute path of the .prompt.mdx file. */
  promptPath: string;
  /** The prompt already loaded from `promptPath` (watch mode loads it to learn its files); loaded here otherwise. */
  prompt?: LoadedPrompt;
  /**
   * With a `prompt` loaded from an earlier run's stored files (`agentmark rerun`): that run's
   * provenance, whose files this run records as its own instead of reading the project's.
   */
  rerunOf?: { id: string; files: FileFingerprint[] };
  /**
   * The team store's URL (`AGENTMARK_STORE_URL` / agentmark.json `store`): rows are streamed there
   * as they finish, beside the local files (see StoreMirror). @default none: local files only
   */
  storeUrl?: string;
  /** `provider/model` overriding the prompt's `model_name`. */
  model?: string;
  /** Name of a config agent (`agents`) that runs the rows, overriding the prompt's `test_settings.agent`. */
  agent?: string;
  /** Rows in flight at once. @default 20 (AgentMark's default) */
  concurrency?: number;
  /**
   * Send the model requests from a worker thread (model/http/http-thread.ts). By default a live
   * run of at least HTTP_THREAD_MIN_ROWS rows does; `false` keeps them on the main thread.
   */
  httpThread?: boolean;
  /**
   * Requests (`rpm`) and tokens (`tpm`) a minute this run's calls may use of each provider key,
   * below what the provider's headers allow (`--rpm`, `--tpm`); the config's `rateLimit` adds
   * per-provider caps.
   */
  rateLimit?: { rpm?: number; tpm?: number };
  /** Per model call, in ms; aborts the request itself. @default 60000 */
  timeoutMs?: number;
  /** @default the prompt's max_retries, else 3 */
  maxRetries?: number;
  /** Runs each row this many times. @default 1 */
  repeat?: number;
  /** The first n row × repeat items dispatched are warm-up: run, but left out of latency statistics. @default 0 */
  warmup?: number;
  /** With `repeat`: each row's first n repeats are warm-up. @default 0 */
  warmupRepeats?: number;
  /** @default all rows */
  selection?: RowSelection;
  /** Only the rows of this shard (by each row's identity hash), after `selection`; recorded in the manifest for `agentmark merge`. */
  shard?: ShardSpec;
  /**
   * With `shard`: the shard group recorded in the manifest (`--shard-group`, AGENTMARK_SHARD_GROUP),
   * whose shards `agentmark merge --store <group>` merges. @default derived from what is run, with a
   * team store; none without one
   */
  shardGroup?: string;
  /** Rows by name or tag (`--name`, `--tag`), applied before `selection`. */
  filter?: RowFilter;
  /** Only these row indexes (watch mode's "rerun failed rows"). */
  onlyIndexes?: ReadonlySet<number>;
  skipEval?: boolean;
  /** @default 'use' */
  cacheMode?: CacheMode;
  /** Folder of the response cache (`agentmark ci --cache-dir`; a base worktree's run shares the head's). @default `<project>/.agentmark/cache` */
  cacheDir?: string;
  /** Continue this run id instead of starting a new one. */
  resume?: string;
  /** Per eval, in ms. @default 30000 */
  evalTimeoutMs?: number;
  judgeModel?: string;
  /** Percent 0..100. */
  threshold?: number;
  /** Stops dispatching when aborted; in-flight rows get `graceMs` to finish. */
  signal?: AbortSignal;
  /** @default 3000 */
  graceMs?: number;
  /** Rows to score instead of the prompt's dataset (pre-generated outputs). */
  datasetPath?: string;
  /** Never call a model: a row without `output` is an errored row (`agentmark score`). */
  scoreOnly?: boolean;
  /**
   * Send the rows' model calls as OpenAI Batch API jobs instead of live calls. A resumed run
   * that was started with it goes on with it.
   */
  batch?: BatchRunOptions;
  onEvent?: RunListener;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  random?: () => number;
}

/** `run-experiment --batch`. */
export interface BatchRunOptions {
  /** Requests per job's file. @default 50000 */
  maxRequests?: number;
  /** Bytes per job's file. @default 209715200 (200 MB) */
  maxBytes?: number;
  /** First wait between polls of the jobs, ms; grows while nothing changes. @default 30000 */
  pollMs?: number;
  /** LLM-judge evals call their model live (they are not batched). @default false */
  judgeLive?: boolean;
}
