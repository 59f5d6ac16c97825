import { priceOf } from '../model/index.js';
import type { ModelPrice, TokenUsage } from '../model/types.js';

/**
 * USD for a batch answer: the config's `batchInput` / `batchOutput` prices when given, else half
 * the live price (OpenAI's Batch API discount); undefined when the model's price is unknown.
 */
export function batchCostOf(modelName: string, usage: TokenUsage, prices?: Record<string, ModelPrice>): number | undefined {
  const price = priceOf(modelName, prices);
  if (price === undefined) return undefined;
  const input = price.batchInput ?? price.input / 2;
  const output = price.batchOutput ?? price.output / 2;
  return (usage.inputTokens * input + usage.outputTokens * output) / 1_000_000;
}
