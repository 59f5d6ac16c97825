import type { LanguageModel, ModelMessage, Tool } from 'ai';
import type { CallSettings, TokenUsage, ToolCallRecord } from '../model/types.js';
import type { LoadedPrompt } from '../prompt/types.js';

/** What `prompt.render(props)` gives an agent: options to spread into `generateText`/`streamText`. */
export type AgentRenderedPrompt = CallSettings & {
  messages: ModelMessage[];
  /** The prompt author wrote the system message; it is not untrusted input. */
  allowSystemInMessages: true;
};

/** A prompt as an agent sees it: the loaded file, and a render that gives AI SDK call options. */
export interface AgentPrompt {
  name: string;
  /** Absolute path of the .prompt.mdx file. */
  path: string;
  /** The prompt's `model_name` (`provider/model`); `ctx.models(prompt.modelName)` gives it as a model. */
  modelName: string;
  /** Tool names of `text_config.tools`. */
  toolNames: string[];
  loaded: LoadedPrompt;
  /** Renders the body with these props: the messages and the frontmatter's call settings. */
  render(props: Record<string, unknown>): AgentRenderedPrompt;
}

/** The row an agent runs. */
export interface AgentRow {
  index: number;
  /** The row's `name`, when it has one. */
  name?: string;
  tags: string[];
  metadata: Record<string, unknown>;
  /** Zero-based repeat (`--repeat`). */
  repeat: number;
}

/** What an agent function receives. */
export interface AgentContext {
  /** The row's input. */
  props: Record<string, unknown>;
  row: AgentRow;
  /** The experiment's prompt. */
  prompt: AgentPrompt;
  /** Loads another prompt of the project (relative to the project root), e.g. for a team's members. */
  loadPrompt(path: string): Promise<AgentPrompt>;
  /** The prompt's model (or `--model`), wrapped: calls are cached, retried, timed and recorded on the row. */
  model: LanguageModel;
  /** Any other `provider/model`, wrapped the same way. */
  models(id: string): LanguageModel;
  /** The config's tools that the prompt names (`text_config.tools`); their calls are recorded on the row. */
  tools: Record<string, Tool>;
  /** Aborted at the row's timeout or when the run is interrupted. */
  signal: AbortSignal;
  /**
   * In a conversation (`test_settings.conversation`, or a row's `messages`): the conversation so
   * far, ending with the user turn to answer; the agent returns its next reply.
   */
  messages?: Array<{ role: 'user' | 'assistant'; content: string }>;
}

/** What an agent may return besides an AI SDK result or a plain value. */
export interface AgentOutput {
  output: unknown;
  toolCalls?: ToolCallRecord[];
  messages?: unknown[];
}

export type AgentFunction = (ctx: AgentContext) => unknown;

/** One model call an agent made through `ctx.model`/`ctx.models`. */
export interface AgentCallRecord {
  model: string;
  usage: TokenUsage;
  /** USD; absent when the model's price is unknown. */
  costUsd?: number;
  /** Of the live call (retries included); for a cached answer, the original call's. */
  latencyMs: number;
  /** HTTP attempts made now (0 when the cache answered). */
  attempts: number;
  cached: boolean;
}

/** What a row run by an agent records besides the usual fields. */
export interface AgentRowRecord {
  name: string;
  /** Model calls made through the context, in the order they ended. */
  calls: AgentCallRecord[];
  modelCalls: number;
  /** Steps of the returned AI SDK result, else the number of model calls. */
  steps: number;
  toolCalls: number;
  /** The agent's wall time minus the time a model call was in flight, in ms; absent on a replayed row (every call cached). */
  agentMs?: number;
  /** Peak heap growth while the agent ran, in MB (sampled; see HeapSampler). */
  peakMemoryMb?: number;
  /** Another row ran at the same time, so `peakMemoryMb` counts its heap too. */
  memoryApproximate?: true;
}
