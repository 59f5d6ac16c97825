import type { Tool } from 'ai';
import type { ChatMessage } from '../prompt/types.js';
import type { PathScope } from '../project/path-scope.js';
import type { ScoreSchema } from '../project/types.js';
import type { ModelRequest, ModelResponse, TokenUsage, ToolCallRecord } from '../model/types.js';
import type { JSONSchema7 } from '../prompt/json-schema.js';
import type { SourceLocation } from '../errors/index.js';

/** What a scorer receives (format.md section 4, plus what this project adds). */
export interface EvalParams {
  /** The row's input props (not the rendered messages). */
  input: Record<string, unknown>;
  output: string | Record<string, unknown> | unknown[];
  expectedOutput?: unknown;
  metadata: Record<string, unknown>;
  messages: ChatMessage[];
  toolCalls: ToolCallRecord[];
  usage: TokenUsage | undefined;
  /** Live latency of the model call; undefined for cached or pre-generated outputs. */
  latencyMs: number | undefined;
  costUsd: number | undefined;
  /** What a config agent did on this row; absent on prompt rows. */
  agent?: AgentMeasures;
  /** The score schema this eval is bound to, when agentmark.json has one. */
  schema: ScoreSchema | undefined;
  /**
   * A conversation row's turns (for a turn eval: the turns before the one judged). `messages` is
   * then the transcript and `output` the last assistant turn (a turn eval's: its turn).
   */
  turns?: EvalTurn[];
  /** How the conversation ended and its `max_turns`, on a conversation row. */
  conversation?: { endedBy: 'stop' | 'max_turns' | 'error'; maxTurns?: number; /** The prompt's rendered system message: the role it gives the assistant. */ system?: string };
}

/** One turn of a conversation as a scorer sees it. */
export interface EvalTurn {
  index: number;
  role: 'user' | 'assistant';
  content: string;
  simulated?: true;
  given?: true;
}

/** Per-row measures of an agent run, for performance evals. */
export interface AgentMeasures {
  /** Model calls made through the agent's context. */
  modelCalls: number;
  /** Steps of the agent's returned AI SDK result, else its model calls. */
  steps: number;
  toolCalls: number;
  /** The agent's wall time minus the time a model call was in flight, in ms; undefined on a replayed row. */
  agentMs: number | undefined;
  /** Peak heap growth while the agent ran, in MB; approximate when rows ran concurrently. */
  peakMemoryMb?: number;
}

/** What a scorer returns. Every field is optional. */
export interface EvalResult {
  score?: number;
  passed?: boolean;
  label?: string;
  reason?: string;
  /**
   * The scorer had nothing to judge on this row (e.g. `latency` on a cached output): no verdict,
   * not an error, and left out of pass rates and means.
   */
  skipped?: boolean;
}

/** What a scorer may use besides its params. */
export interface ScorerControl {
  /** Aborted when the eval times out or the run is interrupted: stop any work still going. */
  signal: AbortSignal;
}

/** What runEval passes to every scorer; `started` matters only to `clockOnStart` evals. */
export interface EvalControl extends ScorerControl {
  started: () => void;
}

export type Scorer = (params: EvalParams, control?: ScorerControl) => EvalResult | Promise<EvalResult>;

/** One eval's validated outcome on one row. */
export interface ScoredEval {
  score?: number;
  passed?: boolean;
  label?: string;
  reason?: string;
  /** Score in [0, 1] so evals on different scales aggregate. */
  normalized?: number;
  /** The scorer threw, timed out or broke its schema; such an eval counts as not passed. */
  error?: string;
  /** Set when a `--batch` judge request failed in its job (`MODEL_BATCH_*`): `--resume` sends it again. */
  errorCode?: string;
  /** No score schema: shown as given, without validation. */
  untyped?: boolean;
  /** No verdict on this row (see EvalResult.skipped). */
  skipped?: boolean;
  /**
   * The eval is one other rows of the dataset carry (their `evals`), not this one: always with
   * `skipped`, and left out of the eval's counts altogether (its n is the rows that carry it).
   */
  absent?: true;
}

/** What scoring reads of a row: its dataset index and its scored evals (a run's RowResult has them). */
export interface ScoredRow {
  index: number;
  evals: Record<string, ScoredEval>;
  /**
   * The row failed before its evals ran (the model call or the agent threw): every eval it
   * lacks counts as errored on it, a repeat that did not pass.
   */
  error?: string;
}

/** Calls a model for an LLM judge; the runner wires it to the same cache, retries and timeouts as main calls. */
export type JudgeFn = (request: ModelRequest) => Promise<ModelResponse>;

/** Embeds a text with `provider/model` (the `similar` scorer); cached and counted like a judge call. */
export type EmbedFn = (modelName: string, text: string) => Promise<number[]>;

/** What a built-in's `create` may need besides its options. */
export interface ScorerContext {
  /** The eval name being bound (for messages). */
  evalName: string;
  /** The score schema the eval is bound to, when agentmark.json has one. */
  schema: ScoreSchema | undefined;
  /** The prompt's `object_config.schema`, for `json_schema` without its own schema. */
  promptSchema: JSONSchema7 | undefined;
  judge: JudgeFn | undefined;
  /** Embeddings for `similar`; absent where no model may be called. */
  embed?: EmbedFn | undefined;
  /** Judge model when the eval's options name none. */
  judgeModel: string | undefined;
  /** Absolute project root; judge prompt paths in options resolve against it. */
  projectRoot: string;
  /** Absolute path of the prompt being evaluated (for error locations). */
  promptPath: string;
  /** Folders a judge's own prompt may be read from. @default the project root alone */
  pathScope?: PathScope | undefined;
  /** Where one of this eval's options is written (agentmark.json's `scores.<name>.options.<key>`). */
  locateOption?: (key: string) => Promise<SourceLocation>;
  /** Tools registered in agentmark.config.ts (`is_valid_tools_call` reads their schemas). */
  tools?: Readonly<Record<string, Tool>> | undefined;
  /** The prompt's `text_config.tools`: the tools its calls may name. */
  promptTools?: readonly string[] | undefined;
}

/** A built-in scorer: a factory that turns validated options into a Scorer. */
export interface BuiltinScorer {
  name: string;
  description: string;
  /** JSON Schema of the options; checked with ajv before `create` runs. */
  options: JSONSchema7;
  /** Its scorer calls a model (a judge): asynchronous, and bounded only by its timeout. */
  callsModel?: boolean;
  /**
   * May be async so that work with a cost (compiling a JSON Schema, loading a judge prompt)
   * happens once, at bind time, where a mistake is a binding error rather than one error per row.
   */
  create(options: Record<string, unknown>, ctx: ScorerContext): Scorer | Promise<Scorer>;
}

/** An eval name bound to the function that scores it. */
export interface BoundEval {
  name: string;
  scorer: Scorer;
  schema: ScoreSchema | undefined;
  /** Where the scorer came from: the project's config, or a built-in. */
  source: 'user' | 'builtin';
  /** The built-in's name when `source` is `builtin`. */
  builtin?: string;
  /**
   * A built-in that answers synchronously in bounded time (every one but the judges): runEval
   * calls it directly, without the timer and abort wiring a scorer that may hang needs.
   */
  inline?: boolean;
  /**
   * The scorer calls `started()` of its control when its work begins, and the eval's clock
   * starts then rather than at the call (a worker's start-up or queue is not charged to it).
   */
  clockOnStart?: boolean;
}
