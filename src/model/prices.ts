import type { ModelPrice, TokenUsage } from './types.js';

/**
 * List prices in USD per million tokens, for a cost estimate in reports. Users add or correct
 * entries through the `prices` option; keys are bare model ids or full `provider/model` names.
 */
export const BUILT_IN_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  o1: { input: 15, output: 60 },
  o3: { input: 2, output: 8 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  // Embeddings (the `similar` scorer): input tokens only.
  'text-embedding-3-small': { input: 0.02, output: 0 },
  'text-embedding-3-large': { input: 0.13, output: 0 },
  'text-embedding-ada-002': { input: 0.1, output: 0 },
};

/** Dated snapshots (`gpt-4o-2024-08-06`) cost what their family costs unless priced themselves. */
const SNAPSHOT_SUFFIX = /-\d{4}-\d{2}-\d{2}$/;

/** The price of `provider/model`, or undefined when unknown. User prices win over built-in ones. */
export function priceOf(modelName: string, prices: Record<string, ModelPrice> = {}): ModelPrice | undefined {
  const slash = modelName.indexOf('/');
  const modelId = slash === -1 ? modelName : modelName.slice(slash + 1);
  const candidates = [modelName, modelId, modelId.replace(SNAPSHOT_SUFFIX, '')];
  for (const table of [prices, BUILT_IN_PRICES]) {
    for (const name of candidates) {
      const price = Object.hasOwn(table, name) ? table[name] : undefined;
      if (price !== undefined) return price;
    }
  }
  return undefined;
}

/** USD for this usage, or undefined when the model's price is unknown. */
export function costOf(modelName: string, usage: TokenUsage, prices?: Record<string, ModelPrice>): number | undefined {
  const price = priceOf(modelName, prices);
  if (price === undefined) return undefined;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}
