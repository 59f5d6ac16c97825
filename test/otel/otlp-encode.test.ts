/**
 * The lean OTLP/protobuf encoder (src/otel/otlp-encode.ts) against OpenTelemetry's own: the
 * same spans built through the SDK's tracer and serialised by `ProtobufTraceSerializer`, and
 * through the lean tracer and our encoder, decoded by OpenTelemetry's generated decoder, must be
 * the same messages (ids replaced by their order of appearance, since both draw random ids).
 */
import { createRequire } from 'node:module';
import { SpanKind, SpanStatusCode, trace, ROOT_CONTEXT, type Span, type Context } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { leanTracer, type LeanSpanData, type SpanStarter } from '../../src/otel/lean-span.js';
import { requestAround, writeSpan } from '../../src/otel/otlp-encode.js';
import { ProtoWriter } from '../../src/otel/proto-writer.js';

const require = createRequire(import.meta.url);
interface ProtoDecoder {
  decode(data: Uint8Array): unknown;
  toObject(message: unknown, options: { longs: StringConstructor; bytes: StringConstructor; defaults: boolean }): unknown;
}
const { opentelemetry } = require('otlp-transformer-protobuf/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: ProtoDecoder } } } } };
};
const Request = opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

const T0 = Date.parse('2026-12-01T10:00:00.000Z');
const LONG = `${'é'.repeat(50)} ${'x'.repeat(300)} 😀`;

/** Spans covering what the encoder distinguishes: kinds, parents, links, events, every value type, long bodies. */
function build(tracer: SpanStarter): void {
  const root = tracer.startSpan('agentmark.run', { kind: SpanKind.INTERNAL, startTime: T0, attributes: { 'agentmark.run.id': 'run-1', 'agentmark.repeat': 1 } }, ROOT_CONTEXT);
  const inRun: Context = trace.setSpan(ROOT_CONTEXT, root);
  for (let i = 0; i < 3; i += 1) {
    const row: Span = tracer.startSpan(
      'agentmark.row',
      {
        kind: SpanKind.INTERNAL,
        startTime: T0 + 10.5 + i,
        attributes: {
          'agentmark.row.index': i,
          'agentmark.row.line': undefined,
          'agentmark.cached': false,
          'agentmark.cost_usd': 0.000125,
          'agentmark.negative': -3,
          'agentmark.row.tags': ['a', 'b'],
          'agentmark.long': LONG,
          'agentmark.empty': '',
        },
        links: [{ context: root.spanContext(), attributes: { 'agentmark.link': 'run' } }],
      },
      inRun,
    );
    row.setAttribute('langfuse.experiment.item.root_observation_id', row.spanContext().spanId);
    if (i === 1) row.setStatus({ code: SpanStatusCode.ERROR, message: 'the row failed' });
    const call = tracer.startSpan(`chat bench-model`, { kind: SpanKind.CLIENT, startTime: T0 + 10.5 + i, attributes: { 'gen_ai.request.model': 'bench-model', 'server.port': 443, 'gen_ai.response.finish_reasons': ['stop'] } }, trace.setSpan(inRun, row));
    call.addEvent('agentmark.retry', { 'agentmark.retry.attempt': 1 }, T0 + 11);
    call.end(T0 + 30.25 + i);
    row.addEvent('gen_ai.evaluation.result', { 'gen_ai.evaluation.name': 'exact', 'gen_ai.evaluation.score.value': 1, 'agentmark.evaluation.passed': true }, T0 + 40);
    // Ends before it starts: both make it last zero.
    row.end(i === 2 ? T0 : T0 + 40 + i);
  }
  root.setAttributes({ 'agentmark.rows': 3, 'agentmark.gate.failed': ['pass_rate'] });
  root.end(T0 + 100);
}

function normalised(bytes: Uint8Array): unknown {
  const decoded = Request.toObject(Request.decode(bytes), { longs: String, bytes: String, defaults: false });
  const ids = new Map<string, string>();
  const text = JSON.stringify(decoded, (key, value: unknown) => {
    if ((key === 'traceId' || key === 'spanId' || key === 'parentSpanId') && typeof value === 'string') {
      if (!ids.has(value)) ids.set(value, `id${ids.size}`);
      return ids.get(value);
    }
    return value;
  });
  // The root-observation attribute holds the span's own id, as text.
  return JSON.parse(text.replace(/"stringValue":"([0-9a-f]{16})"/g, (_all, hex: string) => `"stringValue":"hex:${[...ids.keys()].findIndex((id) => Buffer.from(id, 'base64').toString('hex') === hex)}"`));
}

describe('lean OTLP/protobuf encoding', () => {
  it('writes the messages OpenTelemetry\'s own serializer writes for the same spans', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'agentmark', 'service.version': '9.9.9' }),
      sampler: new AlwaysOnSampler(),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
      spanLimits: { eventCountLimit: 1024, attributeCountLimit: 1024 },
    });
    build(provider.getTracer('agentmark', '9.9.9'));
    const sdkBytes = ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans());

    const ended: LeanSpanData[] = [];
    build(leanTracer((span) => ended.push(span)));
    const writer = new ProtoWriter(16);
    for (const span of ended) writeSpan(writer, span);
    // Encoded twice over: the second time most key-values come from the repeat cache.
    const again = new ProtoWriter(16);
    for (const span of ended) writeSpan(again, span);

    expect(ended).toHaveLength(7);
    const sdk = normalised(sdkBytes as Uint8Array);
    expect(normalised(requestAround(writer.bytes(), { name: 'agentmark', version: '9.9.9' }))).toEqual(sdk);
    expect(normalised(requestAround(again.bytes(), { name: 'agentmark', version: '9.9.9' }))).toEqual(sdk);
  });
});
