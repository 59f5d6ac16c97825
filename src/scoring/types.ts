import type { ChatMessage } from '../prompt/types.js';
import type { ScoreSchema } from '../project/types.js';
import type { TokenUsage, ToolCallRecord } from '../model/types.js';

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
  /** The score schema this eval is bound to, when agentmark.json has one. */
  schema: ScoreSchema | undefined;
}

/** What a scorer returns. Every field is optional. */
export interface EvalResult {
  score?: number;
  passed?: boolean;
  label?: string;
  reason?: string;
}

export type Scorer = (params: EvalParams) => EvalResult | Promise<EvalResult>;

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
  /** No score schema: shown as given, without validation. */
  untyped?: boolean;
}
