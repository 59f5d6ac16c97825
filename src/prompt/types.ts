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
  props?: Record<string, unknown>;
  score_thresholds?: Record<string, number>;
  experiment_key?: string;
  regression_tolerance?: number;
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

interface RenderedBase {
  name: string;
  messages: ChatMessage[];
  test_settings: TestSettings;
}
export type RenderedPrompt =
  | (RenderedBase & { text_config: TextConfig })
  | (RenderedBase & { object_config: ObjectConfig })
  | (RenderedBase & { image_config: Record<string, unknown> })
  | (RenderedBase & { speech_config: Record<string, unknown> });

/** A non-fatal finding while loading or rendering (e.g. text outside role tags). */
export interface PromptWarning {
  file: string;
  line?: number;
  column?: number;
  message: string;
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
   * Where a frontmatter entry is written, e.g. `['test_settings', 'evals', 0]`: the file with the
   * line:column of the key (or list item), or just the file when the entry is not written there.
   */
  locate(path: readonly (string | number)[]): SourceLocation;
  /** Renders the body with these props. Throws TemplateError (with file:line:col). */
  render(props: Record<string, unknown>): RenderedPrompt;
}
