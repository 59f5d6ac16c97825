import type { LanguageModel } from 'ai';

// The provider interface's types, through `ai` (which re-exports the model type, not its parts).
export type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
export type LanguageModelV3CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
export type LanguageModelV3GenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
