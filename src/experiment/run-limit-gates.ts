import type { LoadedPrompt } from '../prompt/types.js';
import type { TokenUsage } from '../model/types.js';
import type { LatencySummary } from './latency-stats.js';
import type { GateResult, JudgeSpend } from './types.js';

/** `test_settings` limits on the run as a whole. */
export interface RunLimits {
  /** Fail when the p95 latency of live (non-warm-up) calls exceeds this many ms. */
  latencyP95Ms?: number;
  /** Fail when the total cost of live calls, model and LLM-judge calls together, exceeds this many USD. */
  costMaxUsd?: number;
  /** Fail when the total tokens of live calls, model and LLM-judge calls together, exceed this. */
  tokensMax?: number;
}

/** What the run measured, for the run-level gates. */
export interface RunMeasures {
  /** Rows that made a model call now (not cached, pre-generated or errored), plus judge calls made now. */
  liveCalls: number;
  latencyMs: LatencySummary;
  /** Model and judge calls together. */
  usage: TokenUsage;
  costUsd?: number;
  /** The judge calls' part, named in the messages when there is one. */
  judge?: JudgeSpend;
}

/**
 * One gate per limit, each with its measured value, like score_thresholds. A run with no live
 * calls (everything cached) has nothing to measure: the gate passes and says so. A cost limit
 * with live calls whose price is unknown fails: an unpriced run cannot show it stayed under.
 */
export function runLimitGates(limits: RunLimits, measured: RunMeasures): GateResult[] {
  const gates: GateResult[] = [];
  const none = 'no live calls to measure (cached or pre-generated)';
  if (limits.latencyP95Ms !== undefined) {
    const limit = limits.latencyP95Ms;
    const p95 = measured.latencyMs.p95;
    gates.push(
      p95 === undefined
        ? { name: 'latency_p95_ms', passed: true, message: `latency p95: ${none}` }
        : { name: 'latency_p95_ms', passed: p95 <= limit, message: `latency p95 ${round(p95)}ms ${p95 <= limit ? '<=' : '>'} ${limit}ms` },
    );
  }
  if (limits.costMaxUsd !== undefined) {
    const limit = limits.costMaxUsd;
    const cost = measured.costUsd;
    if (measured.liveCalls === 0) gates.push({ name: 'cost_max_usd', passed: true, message: `cost: ${none}` });
    else if (cost === undefined) gates.push({ name: 'cost_max_usd', passed: false, message: 'cost of live calls unknown (no price for the model or the judge model; add it under prices in agentmark.config.ts)' });
    else {
      const judge = measured.judge?.costUsd === undefined || measured.judge.calls === measured.judge.cached ? '' : ` (judge $${measured.judge.costUsd.toFixed(6)})`;
      gates.push({ name: 'cost_max_usd', passed: cost <= limit, message: `cost $${cost.toFixed(6)}${judge} ${cost <= limit ? '<=' : '>'} $${limit}` });
    }
  }
  if (limits.tokensMax !== undefined) {
    const limit = limits.tokensMax;
    const tokens = measured.usage.totalTokens;
    const judge = measured.judge === undefined || measured.judge.calls === measured.judge.cached ? '' : ` (judge ${measured.judge.usage.totalTokens})`;
    gates.push({ name: 'tokens_max', passed: tokens <= limit, message: `tokens ${tokens}${judge} ${tokens <= limit ? '<=' : '>'} ${limit}` });
  }
  return gates;
}

const round = (ms: number): string => String(Math.round(ms));

/** The prompt's run-level gates from its `test_settings`. */
export function runLimitsOf(prompt: LoadedPrompt): RunLimits {
  const { latency_p95_ms: latencyP95Ms, cost_max_usd: costMaxUsd, tokens_max: tokensMax } = prompt.testSettings;
  return {
    ...(latencyP95Ms === undefined ? {} : { latencyP95Ms }),
    ...(costMaxUsd === undefined ? {} : { costMaxUsd }),
    ...(tokensMax === undefined ? {} : { tokensMax }),
  };
}
