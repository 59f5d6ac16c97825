/**
 * The parts of the AI SDK a model call uses, loaded on the first call. Named, not the whole
 * namespace: the bundler can then leave out what is never used (UI helpers, streaming, the
 * gateway), which is most of the package and would otherwise be compiled at every run's start.
 */
export interface AiSdk {
  generateText: typeof import('ai').generateText;
  wrapLanguageModel: typeof import('ai').wrapLanguageModel;
  /** For config agents' wrapped models: a streamed call made as one generate call (src/agent/). */
  simulateStreamingMiddleware: typeof import('ai').simulateStreamingMiddleware;
  Output: typeof import('ai').Output;
  jsonSchema: typeof import('ai').jsonSchema;
  stepCountIs: typeof import('ai').stepCountIs;
  APICallError: typeof import('ai').APICallError;
  NoObjectGeneratedError: typeof import('ai').NoObjectGeneratedError;
  NoOutputGeneratedError: typeof import('ai').NoOutputGeneratedError;
  RetryError: typeof import('ai').RetryError;
}

let loaded: Promise<AiSdk> | undefined;

export function loadAiSdk(): Promise<AiSdk> {
  loaded ??= import('ai').then(
    ({ generateText, wrapLanguageModel, simulateStreamingMiddleware, Output, jsonSchema, stepCountIs, APICallError, NoObjectGeneratedError, NoOutputGeneratedError, RetryError }) => ({
      generateText,
      wrapLanguageModel,
      simulateStreamingMiddleware,
      Output,
      jsonSchema,
      stepCountIs,
      APICallError,
      NoObjectGeneratedError,
      NoOutputGeneratedError,
      RetryError,
    }),
  );
  return loaded;
}
