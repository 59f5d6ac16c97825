import type { LanguageModel, LanguageModelMiddleware, LanguageModelUsage } from 'ai';
import type { ChatMessage } from '../prompt/types.js';
import { loadAiSdk } from './ai-sdk.js';
import { plainText } from './model-messages.js';
import type { ModelRequest, ModelResponse, ResponseInfo } from './types.js';

// The provider interface's types, through `ai` (which re-exports the model type, not its parts).
type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type LanguageModelV3CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
type LanguageModelV3Prompt = LanguageModelV3CallOptions['prompt'];

/** What a direct call gives back, in `generateText`'s terms. */
export interface DirectResult {
  output: ModelResponse['output'];
  usage: LanguageModelUsage;
  finishReason: string;
  response?: ResponseInfo;
}

/**
 * The provider prompt of plain-text messages, or undefined when a message has an attachment:
 * those go through `generateText`, which downloads URLs the provider cannot take and checks
 * media types.
 */
export function plainPrompt(messages: readonly ChatMessage[]): LanguageModelV3Prompt | undefined {
  const prompt: LanguageModelV3Prompt = [];
  for (const message of messages) {
    const { content } = message;
    if (message.role === 'user') {
      // Part for part, as generateText passes them (one text part goes out as a plain string).
      if (typeof content === 'string') prompt.push({ role: 'user', content: [{ type: 'text', text: content }] });
      else if (content.every((part) => part.type === 'text')) prompt.push({ role: 'user', content: content.map((part) => ({ type: 'text', text: part.text })) });
      else return undefined;
      continue;
    }
    // Other roles are plain text (toModelMessages joins their text parts the same way).
    const text = plainText(content);
    if (message.role === 'system') prompt.push({ role: 'system', content: text });
    else prompt.push({ role: 'assistant', content: [{ type: 'text', text }] });
  }
  return prompt;
}

/**
 * One call of the provider's model without `generateText`, for a prompt with no tools and no
 * attachments: the same request the SDK would send (the provider builds it from the same
 * options), without the SDK's per-call prompt validation, telemetry and step machinery, which
 * cost several times the provider's own work on a fast server. The model is the guarded one, so
 * timeouts and retries are those of every other call. An object answer is parsed as JSON, as
 * `Output.object` with a schema that has no validator does; text that is not JSON fails the same
 * way (`NoObjectGeneratedError`).
 */
export async function directGenerate(
  model: Pick<LanguageModelV3, 'doGenerate'>,
  prompt: LanguageModelV3Prompt,
  request: ModelRequest,
  signal: AbortSignal | undefined,
): Promise<DirectResult> {
  const options: LanguageModelV3CallOptions = {
    prompt,
    ...request.settings,
    ...(signal === undefined ? {} : { abortSignal: signal }),
    ...(request.kind === 'object'
      ? {
          responseFormat: {
            type: 'json',
            ...(request.schema === undefined ? {} : { schema: request.schema as NonNullable<Extract<LanguageModelV3CallOptions['responseFormat'], { type: 'json' }>['schema']> }),
            ...(request.schemaName === undefined ? {} : { name: request.schemaName }),
            ...(request.schemaDescription === undefined ? {} : { description: request.schemaDescription }),
          },
        }
      : {}),
  };
  const result = await model.doGenerate(options);
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const inputTokens = result.usage.inputTokens.total;
  const outputTokens = result.usage.outputTokens.total;
  const usage: LanguageModelUsage = {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens === undefined && outputTokens === undefined ? undefined : (inputTokens ?? 0) + (outputTokens ?? 0),
    inputTokenDetails: { noCacheTokens: result.usage.inputTokens.noCache, cacheReadTokens: result.usage.inputTokens.cacheRead, cacheWriteTokens: result.usage.inputTokens.cacheWrite },
    outputTokenDetails: { textTokens: result.usage.outputTokens.text, reasoningTokens: result.usage.outputTokens.reasoning },
  };
  const finishReason = result.finishReason.unified;
  const response = responseInfo(result.response?.id, result.response?.modelId);
  if (request.kind !== 'object') return { output: text, usage, finishReason, ...response };
  try {
    return { output: JSON.parse(text) as ModelResponse['output'], usage, finishReason, ...response };
  } catch (error) {
    const { NoObjectGeneratedError } = await loadAiSdk();
    throw new NoObjectGeneratedError({
      message: 'No object generated: could not parse the response.',
      cause: error instanceof Error ? error : undefined,
      text,
      response: { id: result.response?.id ?? '', timestamp: result.response?.timestamp ?? new Date(), modelId: result.response?.modelId ?? request.modelName },
      usage,
      finishReason,
    });
  }
}

/**
 * The model with `middleware` around each `doGenerate`, as `wrapLanguageModel` puts it (our
 * guard transforms no parameters): direct calls then never load the `ai` package, ~25 ms of
 * start-up and a wrapper object per call.
 */
export function guardedModel(model: LanguageModelV3, middleware: LanguageModelMiddleware): Pick<LanguageModelV3, 'doGenerate'> {
  const wrap = middleware.wrapGenerate;
  if (wrap === undefined) return model;
  return {
    doGenerate: (params) => wrap({ model, params, doGenerate: () => model.doGenerate(params), doStream: () => model.doStream(params) }),
  };
}

/** `{ response }` when the provider named its response or model; nothing otherwise. */
export function responseInfo(id: string | undefined, model: string | undefined): { response?: ResponseInfo } {
  if (!id && !model) return {};
  // Set in place, not spread from conditional objects: this runs once a row.
  const response: ResponseInfo = {};
  if (id) response.id = id;
  if (model) response.model = model;
  return { response };
}
