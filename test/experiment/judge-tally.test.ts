import { describe, expect, it } from 'vitest';
import { RunAccumulator } from '../../src/experiment/run-summary.js';
import type { JudgeSpend, RowResult } from '../../src/experiment/types.js';

const usage = (input: number, output: number) => ({ inputTokens: input, outputTokens: output, totalTokens: input + output });

function row(index: number, fields: Partial<RowResult>): RowResult {
  return { index, line: index + 1, repeat: 0, input: {}, metadata: {}, output: 'x', toolCalls: [], evals: { polite: { passed: true } }, cached: false, retries: 0, ...fields };
}
const judge = (fields: Partial<JudgeSpend>): JudgeSpend => ({ calls: 1, cached: 0, usage: usage(100, 10), costUsd: 0.001, latencyMs: 50, ...fields });
const limitMessages = (gates: Array<{ name: string; message: string }>): string[] =>
  gates.filter((gate) => gate.name === 'cost_max_usd' || gate.name === 'tokens_max').map((gate) => gate.message);
const limits = { evalNames: ['polite'], runLimits: { costMaxUsd: 1, tokensMax: 1000 } };

describe('the run summary with LLM-judge calls', () => {
  it('adds the judge calls to the totals and keeps their part apart', () => {
    const acc = new RunAccumulator(['polite'], 1);
    acc.add(row(0, { latencyMs: 5, usage: usage(10, 2), costUsd: 0.0001, judge: judge({}) }));
    // A cached main answer: its judge call made now still counts.
    acc.add(row(1, { cached: true, latencyMs: 5, usage: usage(10, 2), costUsd: 0.0001, judge: judge({}) }));
    acc.add(row(2, { latencyMs: 5, usage: usage(10, 2), costUsd: 0.0001, judge: judge({ cached: 1, usage: usage(0, 0), costUsd: 0, latencyMs: 0 }) }));
    const summary = acc.finish(limits);
    expect(summary.judge).toEqual({ calls: 3, cached: 1, usage: usage(200, 20), costUsd: 0.002, latencyMs: 100 });
    expect(summary.usage).toEqual(usage(220, 24));
    expect(summary.costUsd).toBeCloseTo(0.0022, 15);
    expect(limitMessages(summary.gates)).toEqual(['cost $0.002200 (judge $0.002000) <= $1', 'tokens 244 (judge 220) <= 1000']);
  });

  it('a judge call made now without a price leaves the judge cost and the total unknown, and the cost gate fails', () => {
    const acc = new RunAccumulator(['polite'], 1);
    const { costUsd: _none, ...unpriced } = judge({});
    acc.add(row(0, { latencyMs: 5, usage: usage(10, 2), costUsd: 0.0001, judge: unpriced }));
    const summary = acc.finish(limits);
    expect(summary.judge?.costUsd).toBeUndefined();
    expect(summary.costUsd).toBeUndefined();
    expect(summary.gates.find((gate) => gate.name === 'cost_max_usd')).toMatchObject({ name: 'cost_max_usd', passed: false });
  });

  it('a cached judge answer without a price costs nothing: the totals stay known', () => {
    const acc = new RunAccumulator(['polite'], 1);
    const { costUsd: _none, ...cached } = judge({ cached: 1, usage: usage(0, 0), latencyMs: 0 });
    acc.add(row(0, { latencyMs: 5, usage: usage(10, 2), costUsd: 0.0001, judge: cached }));
    const summary = acc.finish(limits);
    expect(summary.judge).toEqual({ calls: 1, cached: 1, usage: usage(0, 0), costUsd: 0, latencyMs: 0 });
    expect(summary.costUsd).toBe(0.0001);
    expect(limitMessages(summary.gates)).toEqual(['cost $0.000100 <= $1', 'tokens 12 <= 1000']);
  });

  it('a run without judge calls has no judge part and the same totals as before', () => {
    const acc = new RunAccumulator(['polite'], 1);
    acc.add(row(0, { latencyMs: 5, usage: usage(10, 2), costUsd: 0.0001 }));
    const summary = acc.finish(limits);
    expect(summary.judge).toBeUndefined();
    expect(summary.usage).toEqual(usage(10, 2));
    expect(summary.costUsd).toBe(0.0001);
  });
});
