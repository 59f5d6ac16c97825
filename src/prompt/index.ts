export { loadPrompt, type LoadPromptOptions } from './load-prompt.js';
export { findPromptFiles } from './find-prompt-files.js';
export { FILTER_NAMES, type UserFilter } from './filters.js';
export { BUILT_IN_TAGS } from './template.js';
export type {
  ChatMessage,
  ContentPart,
  FilePart,
  ImagePart,
  LoadedPrompt,
  ModelSettings,
  ObjectConfig,
  PromptFrontmatter,
  PromptKind,
  PromptWarning,
  RenderedPrompt,
  Role,
  TestSettings,
  TextConfig,
  TextPart,
  ToolChoice,
} from './types.js';
export type { JSONSchema7 } from './json-schema.js';
export { unknownKeysOfFile, knownKeys as knownFrontmatterKeys } from './unknown-keys.js';
export { compileInputSchema, type InputValidator } from './input-validator.js';
