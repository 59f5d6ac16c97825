import { ROOT_CONTEXT } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { RowResult } from '../../src/experiment/index.js';
import { emitRowSpans } from '../../src/otel/row-spans.js';

const usage = (n: number) => ({ inputTokens: n, outputTokens: 1, totalTokens: n + 1 });

const row: RowResult = {
  index: 0,
  line: 1,
  repeat: 0,
  input: {},
  metadata: {},
  output: 're: b',
  toolCalls: [],
  evals: { ended: { passed: true, score: 1 } },
  cached: false,
  retries: 0,
  latencyMs: 30,
  endedAt: '2026-12-02T00:00:10.000Z',
  conversation: {
    messages: [],
    turns: [
      { index: 0, role: 'user', content: 'a', given: true },
      { index: 1, role: 'assistant', content: 're: a', cached: true, latencyMs: 500, usage: usage(5) },
      { index: 2, role: 'user', content: 'b', simulated: true, cached: false, latencyMs: 20, usage: usage(3) },
      { index: 3, role: 'assistant', content: 're: b', cached: false, latencyMs: 30, usage: usage(7), evals: { polite: { passed: false, score: 0 } } },
    ],
    endedBy: 'stop',
  },
};

describe('OTel: a conversation row', () => {
  it('has one span per turn under the row, end to end in order, the cached turn instant, the simulated one marked', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    emitRowSpans(row, {
      tracer: provider.getTracer('test'),
      parent: ROOT_CONTEXT,
      links: [],
      model: 'openai/gpt-4o-mini',
      judgeModel: undefined,
      settings: {},
      serverOf: () => undefined,
      content: false,
      shared: {},
      fallbackEnd: 0,
    });
    const spans = exporter.getFinishedSpans();
    const rowSpan = spans.find((span) => span.name === 'agentmark.row');
    const turns = spans.filter((span) => span.name.startsWith('turn '));
    const ms = (time: [number, number]): number => time[0] * 1000 + time[1] / 1e6 - Date.parse('2026-12-02T00:00:10.000Z');
    expect(turns.map((span) => [span.name, span.parentSpanContext?.spanId === rowSpan?.spanContext().spanId, ms(span.startTime), ms(span.endTime)])).toEqual([
      ['turn 0 user', true, -50, -50],
      ['turn 1 assistant', true, -50, -50],
      ['turn 2 user', true, -50, -30],
      ['turn 3 assistant', true, -30, 0],
    ]);
    expect(ms(rowSpan?.startTime ?? [0, 0])).toBe(-50);
    expect(turns.map((span) => span.attributes)).toEqual([
      { 'agentmark.turn.index': 0, 'agentmark.turn.role': 'user', 'agentmark.turn.given': true },
      { 'agentmark.turn.index': 1, 'agentmark.turn.role': 'assistant', 'gen_ai.operation.name': 'chat', 'agentmark.cached': true, 'gen_ai.usage.input_tokens': 5, 'gen_ai.usage.output_tokens': 1 },
      { 'agentmark.turn.index': 2, 'agentmark.turn.role': 'user', 'agentmark.turn.simulated': true, 'gen_ai.operation.name': 'chat', 'agentmark.cached': false, 'gen_ai.usage.input_tokens': 3, 'gen_ai.usage.output_tokens': 1 },
      {
        'agentmark.turn.index': 3,
        'agentmark.turn.role': 'assistant',
        'gen_ai.operation.name': 'chat',
        'agentmark.cached': false,
        'gen_ai.usage.input_tokens': 7,
        'gen_ai.usage.output_tokens': 1,
        'agentmark.turn.eval.polite.passed': false,
        'agentmark.turn.eval.polite.score': 0,
      },
    ]);
    // No separate chat span: the turns are the calls.
    expect(spans.map((span) => span.name).sort()).toEqual(['agentmark.row', 'turn 0 user', 'turn 1 assistant', 'turn 2 user', 'turn 3 assistant']);
  });
});
