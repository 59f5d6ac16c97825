import type { TokenUsage } from '../model/types.js';

/** One turn's reply, from a model call (the prompt's or the simulator's) or an agent. */
export interface TurnAnswer {
  content: string;
  usage?: TokenUsage;
  /** USD when the price is known. */
  costUsd?: number;
  latencyMs?: number;
  cached: boolean;
  retries: number;
}

/** Text of a reply: an object prompt's answer is shown as its JSON. */
export function answerText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined || output === null) return '';
  return JSON.stringify(output);
}

export function addUsage(into: TokenUsage, usage: TokenUsage | undefined): void {
  if (usage === undefined) return;
  into.inputTokens += usage.inputTokens;
  into.outputTokens += usage.outputTokens;
  into.totalTokens += usage.totalTokens;
}

export function zeroUsage(): TokenUsage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}
