import { hash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';
import type { LanguageModelV3CallOptions } from './model-types.js';

/** Bumped when the key's payload changes, so old entries simply miss. */
const AGENT_KEY_VERSION = 1;

/**
 * sha256 of everything in an agent's model call that decides the answer: the model, the prompt
 * the AI SDK built (messages, tool results), the settings, tools, tool choice, response format
 * and provider options, plus the repeat. Not the signal or headers.
 */
export function agentCacheKey(modelName: string, params: LanguageModelV3CallOptions, repeat: number): string {
  const payload = {
    version: AGENT_KEY_VERSION,
    agent: true,
    model: modelName,
    prompt: params.prompt,
    maxOutputTokens: params.maxOutputTokens,
    temperature: params.temperature,
    stopSequences: params.stopSequences,
    topP: params.topP,
    topK: params.topK,
    presencePenalty: params.presencePenalty,
    frequencyPenalty: params.frequencyPenalty,
    seed: params.seed,
    responseFormat: params.responseFormat,
    tools: params.tools,
    toolChoice: params.toolChoice,
    providerOptions: params.providerOptions,
    repeat,
  };
  return hash('sha256', canonicalJson(payload), 'hex');
}
