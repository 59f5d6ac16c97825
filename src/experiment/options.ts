import type { RowSelection } from '../dataset/types.js';
import type { LoadedConfig } from '../project/index.js';
import type { Project } from '../project/types.js';
import type { LoadedPrompt } from '../prompt/types.js';
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
  /** `provider/model` overriding the prompt's `model_name`. */
  model?: string;
  /** Rows in flight at once. @default 20 (AgentMark's default) */
  concurrency?: number;
  /** Per model call, in ms; aborts the request itself. @default 60000 */
  timeoutMs?: number;
  /** @default the prompt's max_retries, else 3 */
  maxRetries?: number;
  /** Runs each row this many times. @default 1 */
  repeat?: number;
  /** @default all rows */
  selection?: RowSelection;
  /** Only these row indexes (watch mode's "rerun failed rows"). */
  onlyIndexes?: ReadonlySet<number>;
  skipEval?: boolean;
  /** @default 'use' */
  cacheMode?: CacheMode;
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
  onEvent?: RunListener;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  random?: () => number;
}
