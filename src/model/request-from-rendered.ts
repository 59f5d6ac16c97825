import { UsageError } from '../errors/index.js';
import type { ModelSettings, RenderedPrompt } from '../prompt/types.js';
import type { CallSettings, ModelRequest } from './types.js';

export interface RequestOverrides {
  /** Replaces the frontmatter's `model_name` (e.g. from `--model`). */
  model?: string;
}

/**
 * Turns a rendered prompt into the provider-neutral request the executor and the cache use.
 * Frontmatter names become the AI SDK's names here, and only here.
 */
export function requestFromRendered(rendered: RenderedPrompt, overrides: RequestOverrides = {}): ModelRequest {
  if ('text_config' in rendered) {
    const config = rendered.text_config;
    const request = baseRequest('text', rendered, config, overrides);
    if (config.tools !== undefined && config.tools.length > 0) request.tools = [...config.tools];
    if (config.tool_choice !== undefined) request.toolChoice = config.tool_choice;
    return request;
  }
  if ('object_config' in rendered) {
    const config = rendered.object_config;
    const request = baseRequest('object', rendered, config, overrides);
    request.schema = config.schema;
    if (config.schema_name !== undefined) request.schemaName = config.schema_name;
    if (config.schema_description !== undefined) request.schemaDescription = config.schema_description;
    return request;
  }
  const kind = 'image_config' in rendered ? 'image' : 'speech';
  throw new UsageError('USAGE_UNSUPPORTED_PROMPT', `"${rendered.name}" is an ${kind} prompt; ${kind} prompts are not run by this tool`, {
    hint: 'only prompts with text_config or object_config can be run and evaluated',
  });
}

function baseRequest(
  kind: ModelRequest['kind'],
  rendered: RenderedPrompt,
  config: ModelSettings,
  overrides: RequestOverrides,
): ModelRequest {
  const request: ModelRequest = {
    modelName: overrides.model ?? config.model_name,
    kind,
    messages: rendered.messages ?? [],
    settings: callSettings(config),
  };
  if (config.max_calls !== undefined) request.maxCalls = config.max_calls;
  return request;
}

/** Only settings that were written are set, so the cache key does not change when defaults do. */
export function callSettings(config: ModelSettings): CallSettings {
  const settings: CallSettings = {};
  if (config.max_tokens !== undefined) settings.maxOutputTokens = config.max_tokens;
  if (config.temperature !== undefined) settings.temperature = config.temperature;
  if (config.top_p !== undefined) settings.topP = config.top_p;
  if (config.top_k !== undefined) settings.topK = config.top_k;
  if (config.presence_penalty !== undefined) settings.presencePenalty = config.presence_penalty;
  if (config.frequency_penalty !== undefined) settings.frequencyPenalty = config.frequency_penalty;
  if (config.stop_sequences !== undefined) settings.stopSequences = [...config.stop_sequences];
  if (config.seed !== undefined) settings.seed = config.seed;
  return settings;
}
