import type { SourceLocation } from '../errors/index.js';
import type { JSONSchema7 } from './json-schema.js';

export type Role = 'system' | 'user' | 'assistant';
export interface TextPart { type: 'text'; text: string }
export interface ImagePart { type: 'image'; image: string; mimeType?: string }
export interface FilePart { type: 'file'; data: string; mimeType: string }
export type ContentPart = TextPart | ImagePart | FilePart;
export interface ChatMessage {
  role: Role;
  /** A string, or for a user message with attachments, a parts array. */
  content: string | ContentPart[];
}

/** Settings shared by text_config and object_config (frontmatter names, unchanged). */
export interface ModelSettings {
  model_name: string;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  stop_sequences?: string[];
  seed?: number;
  max_retries?: number;
  max_calls?: number;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; tool_name: string };

export interface TextConfig extends ModelSettings {
  tool_choice?: ToolChoice;
  tools?: string[];
}

export interface ObjectConfig extends ModelSettings {
  schema: JSONSchema7;
  schema_name?: string;
  schema_description?: string;
}

export interface TestSettings {
  dataset?: string;
  evals?: string[];
  /** Runs the prompt once per model, as repeated `--model` flags do; `--model` overrides it. */
  models?: string[];
  /** `null` in the file means no props, as in AgentMark. */
  props?: Record<string, unknown> | null;
  score_thresholds?: Record<string, number>;
  /** Gate: minimum lower bound of each judged eval's kappa against the dataset rows' `labels`. */
  judge_min_agreement?: Record<string, number>;
  experiment_key?: string;
  /** Runs the rows through this agent of the config's `agents`; `run-experiment --agent` wins. */
  agent?: string;
  regression_tolerance?: number;
  /** Per model call for this prompt's rows; a row's `timeout_seconds` wins, and so does an explicit `--timeout`. @default 60 */
  timeout_seconds?: number;
  /** Run-level gate: maximum p95 latency of live calls, in ms. */
  latency_p95_ms?: number;
  /** Run-level gate: maximum total cost of live calls, in USD. */
  cost_max_usd?: number;
  /** Run-level gate: maximum total tokens of live calls. */
  tokens_max?: number;
  /** Runs each row as a conversation (see src/conversation/). */
  conversation?: ConversationConfig;
  /** Evals of each assistant turn of a conversation, summarised per conversation. */
  turn_evals?: string[];
}

/** `test_settings.conversation` as written. */
export interface ConversationConfig {
  /** The simulated user's `.prompt.mdx`, relative to the prompt, then the project root. */
  simulator?: string;
  /** User turns at most. @default 6 */
  max_turns?: number;
  /** A simulator reply containing this text ends the conversation. @default "###STOP###" */
  stop?: string;
  /** Who speaks first. @default "user" */
  opener?: 'user' | 'assistant';
}

export interface PromptFrontmatter {
  name: string;
  text_config?: TextConfig;
  object_config?: ObjectConfig;
  image_config?: Record<string, unknown>;
  speech_config?: Record<string, unknown>;
  test_settings?: TestSettings;
  input_schema?: JSONSchema7;
  [key: string]: unknown;
}

export type PromptKind = 'text' | 'object' | 'image' | 'speech';

/** `image_config` as rendered: the frontmatter's settings plus the `<ImagePrompt>` text. */
export type RenderedImageConfig = Record<string, unknown> & { prompt: string };
/** `speech_config` as rendered: the settings plus the `<SpeechPrompt>` text and the `<System>` instructions. */
export type RenderedSpeechConfig = Record<string, unknown> & { text: string; instructions: string };

interface RenderedBase {
  name: string;
  test_settings: TestSettings;
  /** The frontmatter's `agentmark_meta`, passed through unchanged when present (as AgentMark does). */
  agentmark_meta?: Record<string, unknown>;
}
/** A text or object prompt: the messages and the model settings. */
export type RenderedChatPrompt =
  | (RenderedBase & { messages: ChatMessage[]; text_config: TextConfig })
  | (RenderedBase & { messages: ChatMessage[]; object_config: ObjectConfig });
/** Image and speech prompts carry no messages: their text is inside the config, as in AgentMark. */
export type RenderedPrompt =
  | RenderedChatPrompt
  | (RenderedBase & { image_config: RenderedImageConfig; messages?: undefined })
  | (RenderedBase & { speech_config: RenderedSpeechConfig; messages?: undefined });

/** A non-fatal finding while loading or rendering (e.g. text outside role tags). */
export interface PromptWarning {
  file: string;
  line?: number;
  column?: number;
  message: string;
  /** For an unknown frontmatter key close to a known one: that key. `validate` refuses these. */
  likelyTypo?: string;
}

export interface LoadedPrompt {
  /** Absolute path of the .prompt.mdx file. */
  path: string;
  name: string;
  /** The file's text, for hashing. */
  source: string;
  frontmatter: PromptFrontmatter;
  kind: PromptKind;
  testSettings: TestSettings;
  inputSchema: JSONSchema7 | undefined;
  /** Every file read to load this prompt, absolute: the prompt and its components, transitively. */
  files: string[];
  warnings: PromptWarning[];
  /**
   * The top-level props the body reads (`props.x`), each at its first use: checked against the
   * dataset's rows where no `input_schema` lists the props (a name no row has renders as "").
   */
  propReads: Array<{ name: string; file: string; line: number; column: number }>;
  /**
   * Where a frontmatter entry is written, e.g. `['test_settings', 'evals', 0]`: the file with the
   * line:column of the key (or list item), or just the file when the entry is not written there.
   */
  locate(path: readonly (string | number)[]): SourceLocation;
  /** Renders the body with these props. Throws TemplateError (with file:line:col). */
  render(props: Record<string, unknown>): RenderedPrompt;
}
