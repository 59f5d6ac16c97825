import type { ChatMessage, ToolChoice } from '../prompt/types.js';
import type { JSONSchema7 } from '../prompt/json-schema.js';

/** Everything that determines a model's answer; also what the response cache key is built from. */
export interface ModelRequest {
  /** `provider/model`, e.g. `openai/gpt-4o-mini`. */
  modelName: string;
  /** `embedding`: the text of the one user message embedded (the `similar` scorer), never a generation. */
  kind: 'text' | 'object' | 'embedding';
  messages: ChatMessage[];
  settings: CallSettings;
  /** Tool names (text prompts), looked up in the config's tool registry. */
  tools?: string[];
  toolChoice?: ToolChoice;
  /** Tool round trips allowed. @default 1 */
  maxCalls?: number;
  /** object prompts */
  schema?: JSONSchema7;
  schemaName?: string;
  schemaDescription?: string;
}

/** The AI SDK's call settings, mapped from frontmatter names. */
export interface CallSettings {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stopSequences?: string[];
  seed?: number;
}

export interface ToolCallRecord {
  name: string;
  args: unknown;
  result?: unknown;
  error?: string;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export interface ModelResponse {
  /** Text, or the object for object prompts. */
  output: string | Record<string, unknown> | unknown[];
  toolCalls: ToolCallRecord[];
  usage: TokenUsage;
  finishReason: string;
  /** Wall time of the live call, including retries; for a cached answer, the original call's. */
  latencyMs: number;
  /** USD, when the model's price is known. */
  costUsd: number | undefined;
  cached: boolean;
  /** Attempts beyond the first that the call needed (0 when it succeeded at once or was cached). */
  retries: number;
  /** Answered by a Batch API job: there was no live call, so `latencyMs` means nothing. */
  batch?: boolean;
  /** The provider's id of the response and the model that answered, when it said (trace export). */
  response?: ResponseInfo;
}

export interface ResponseInfo {
  id?: string;
  model?: string;
}

/** Price in USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Batch API prices (`run-experiment --batch`). @default half of `input` / `output` */
  batchInput?: number;
  batchOutput?: number;
}
