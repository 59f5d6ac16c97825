import type { Attributes } from '@opentelemetry/api';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_FREQUENCY_PENALTY,
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_REQUEST_PRESENCE_PENALTY,
  ATTR_GEN_AI_REQUEST_SEED,
  ATTR_GEN_AI_REQUEST_STOP_SEQUENCES,
  ATTR_GEN_AI_REQUEST_TEMPERATURE,
  ATTR_GEN_AI_REQUEST_TOP_K,
  ATTR_GEN_AI_REQUEST_TOP_P,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
} from '@opentelemetry/semantic-conventions/incubating';
import type { TokenUsage } from '../model/types.js';

/** Where a provider's requests go, for `server.address` / `server.port`. */
export type ServerOf = (provider: string) => URL | undefined;

/** `openai/gpt-4o` → provider `openai`, model `gpt-4o`; a name without a slash is an OpenAI model. */
export function splitModel(modelName: string): { provider: string; model: string } {
  const slash = modelName.indexOf('/');
  return slash === -1 ? { provider: 'openai', model: modelName } : { provider: modelName.slice(0, slash), model: modelName.slice(slash + 1) };
}

/** The frontmatter's model settings (as stored in the manifest) under their GenAI names. */
const SETTINGS: Record<string, string> = {
  temperature: ATTR_GEN_AI_REQUEST_TEMPERATURE,
  max_tokens: ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  top_p: ATTR_GEN_AI_REQUEST_TOP_P,
  top_k: ATTR_GEN_AI_REQUEST_TOP_K,
  presence_penalty: ATTR_GEN_AI_REQUEST_PRESENCE_PENALTY,
  frequency_penalty: ATTR_GEN_AI_REQUEST_FREQUENCY_PENALTY,
  stop_sequences: ATTR_GEN_AI_REQUEST_STOP_SEQUENCES,
  seed: ATTR_GEN_AI_REQUEST_SEED,
};

/** The attributes every `chat` client span carries: operation, provider, model, server, settings. */
export function chatRequestAttributes(modelName: string, settings: Record<string, unknown>, serverOf: ServerOf): Attributes {
  const { provider, model } = splitModel(modelName);
  const attributes: Attributes = {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
    [ATTR_GEN_AI_PROVIDER_NAME]: provider,
    [ATTR_GEN_AI_REQUEST_MODEL]: model,
  };
  for (const [key, name] of Object.entries(SETTINGS)) {
    const value = settings[key];
    if (typeof value === 'number') attributes[name] = value;
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) attributes[name] = value as string[];
  }
  const server = serverOf(provider);
  if (server) {
    attributes[ATTR_SERVER_ADDRESS] = server.hostname;
    attributes[ATTR_SERVER_PORT] = server.port === '' ? (server.protocol === 'http:' ? 80 : 443) : Number(server.port);
  }
  return attributes;
}

export function usageAttributes(usage: TokenUsage | undefined): Attributes {
  if (!usage) return {};
  return { [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: usage.inputTokens, [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: usage.outputTokens };
}

/** The AI SDK's finish reasons (`tool-calls`) under the names the conventions list (`tool_calls`). */
export function finishReasons(reason: string | undefined): Attributes {
  if (reason === undefined || reason === '') return {};
  return { [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: [reason.replace(/-/g, '_')] };
}

/**
 * OpenInference's names for what a model call span already says in `gen_ai.*` (Phoenix reads
 * these): the model, its provider and the token counts. Set with content export, as Phoenix's
 * other attributes are; without it the `gen_ai.*` ones say the same, and every span stays small.
 */
export function openInferenceLlm(modelName: string, usage: TokenUsage | undefined, responseModel?: string): Attributes {
  const { provider, model } = splitModel(modelName);
  return {
    'llm.model_name': responseModel ?? model,
    'llm.provider': provider,
    ...(usage
      ? { 'llm.token_count.prompt': usage.inputTokens, 'llm.token_count.completion': usage.outputTokens, 'llm.token_count.total': usage.inputTokens + usage.outputTokens }
      : {}),
  };
}
