import type { BuiltinScorer, EvalParams, EvalResult } from '../types.js';
import { defineScorer } from './define-scorer.js';

function limit(value: number, max: number, what: string, maxText: string): EvalResult {
  const passed = value <= max;
  return { passed, score: passed ? 1 : 0, reason: `${what} ${passed ? 'within' : 'exceeds'} max ${maxText}` };
}

export interface LatencyOptions {
  /** Longest acceptable live model latency in milliseconds. Required. */
  maxMs: number;
}

/**
 * A cached or pre-generated output has no live latency; judging it by the original call's time
 * would pass or fail a row for something this run never measured, so it gets no verdict
 * (`skipped`, with reason "no live latency (cached)") rather than a pass, a fail or an error.
 */
export const latency = defineScorer<LatencyOptions>({
  name: 'latency',
  description: 'Passes when the live model latency is within maxMs; cached rows get no verdict.',
  options: {
    type: 'object',
    properties: { maxMs: { type: 'number', exclusiveMinimum: 0 } },
    required: ['maxMs'],
    additionalProperties: false,
  },
  create: (options) => (params) =>
    params.latencyMs === undefined
      ? { skipped: true, reason: 'no live latency (cached)' }
      : limit(Math.round(params.latencyMs), options.maxMs, `latency ${Math.round(params.latencyMs)}ms`, `${options.maxMs}ms`),
});

export interface TokensOptions {
  /** Most total tokens (input + output) allowed. Required. */
  max: number;
}

export const tokens = defineScorer<TokensOptions>({
  name: 'tokens',
  description: 'Passes when the total tokens used are within max.',
  options: {
    type: 'object',
    properties: { max: { type: 'integer', minimum: 0 } },
    required: ['max'],
    additionalProperties: false,
  },
  create: (options) => (params) =>
    params.usage === undefined
      ? { skipped: true, reason: 'no token usage recorded' }
      : limit(params.usage.totalTokens, options.max, `${params.usage.totalTokens} tokens`, String(options.max)),
});

export interface CostOptions {
  /** Most USD one call may cost. Required. */
  maxUsd: number;
}

export const cost = defineScorer<CostOptions>({
  name: 'cost',
  description: "Passes when the call's cost in USD is within maxUsd; unknown prices get no verdict.",
  options: {
    type: 'object',
    properties: { maxUsd: { type: 'number', minimum: 0 } },
    required: ['maxUsd'],
    additionalProperties: false,
  },
  create: (options) => (params) =>
    params.costUsd === undefined
      ? { skipped: true, reason: 'cost unknown (no price for this model)' }
      : limit(params.costUsd, options.maxUsd, `cost $${Number(params.costUsd.toPrecision(6))}`, `$${options.maxUsd}`),
});

export interface CountOptions {
  /** Most allowed. Required. */
  max: number;
}

/** A count an agent row records (see AgentMeasures); prompt rows have none and get no verdict. */
function agentLimit(name: string, what: string, read: (agent: NonNullable<EvalParams['agent']>) => number): BuiltinScorer {
  return defineScorer<CountOptions>({
    name,
    description: `Passes when an agent row's ${what} are within max; rows not run by an agent get no verdict.`,
    options: {
      type: 'object',
      properties: { max: { type: 'integer', minimum: 0 } },
      required: ['max'],
      additionalProperties: false,
    },
    create: (options) => (params) => {
      if (params.agent === undefined) return { skipped: true, reason: 'not run by an agent' };
      const value = read(params.agent);
      return limit(value, options.max, `${value} ${what}`, String(options.max));
    },
  });
}

export const maxSteps = agentLimit('max_steps', 'steps', (agent) => agent.steps);
export const maxModelCalls = agentLimit('max_model_calls', 'model calls', (agent) => agent.modelCalls);

export const performanceScorers: BuiltinScorer[] = [latency, tokens, cost, maxSteps, maxModelCalls];
