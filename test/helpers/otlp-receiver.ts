/**
 * A real OTLP/HTTP trace receiver on 127.0.0.1 for tests: takes `POST /v1/traces` as protobuf
 * (decoded with OpenTelemetry's own generated decoder from @opentelemetry/otlp-transformer) or
 * JSON, and keeps the spans in one flat, readable shape. Faults: answer 503, or never answer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface ProtoDecoder {
  decode(data: Uint8Array): unknown;
  toObject(message: unknown, options: { longs: StringConstructor; defaults: boolean }): unknown;
}
const { opentelemetry } = require('otlp-transformer-protobuf/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: ProtoDecoder } } } } };
};
const Request = opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export type AttributeValue = string | number | boolean | AttributeValue[] | null;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind number: 1 internal, 3 client. */
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeValue>;
  events: Array<{ name: string; timeMs: number; attributes: Record<string, AttributeValue> }>;
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  links: Array<{ traceId: string; spanId: string; attributes: Record<string, AttributeValue> }>;
  resource: Record<string, AttributeValue>;
}

export interface ReceivedRequest {
  contentType: string;
  headers: Record<string, string | string[] | undefined>;
}

export type ReceiverMode = 'ok' | 'unavailable' | 'hang';

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  requests: ReceivedRequest[];
  /** The JSON request bodies as received (http/json), e.g. to write an OTLP/JSON traces file. */
  jsonBodies: string[];
  setMode(mode: ReceiverMode): void;
  close(): Promise<void>;
}

export async function startOtlpReceiver(mode: ReceiverMode = 'ok'): Promise<OtlpReceiver> {
  let current = mode;
  const spans: ReceivedSpan[] = [];
  const requests: ReceivedRequest[] = [];
  const jsonBodies: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const contentType = String(req.headers['content-type'] ?? '');
      requests.push({ contentType, headers: req.headers });
      if (current === 'hang') return;
      if (current === 'unavailable') {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('unavailable');
        return;
      }
      const body = Buffer.concat(chunks);
      if (contentType.includes('json')) jsonBodies.push(body.toString('utf8'));
      const decoded = contentType.includes('json') ? (JSON.parse(body.toString('utf8')) as unknown) : Request.toObject(Request.decode(body), { longs: String, defaults: false });
      spans.push(...flatten(decoded as OtlpRequest));
      res.writeHead(200, { 'content-type': contentType.includes('json') ? 'application/json' : 'application/x-protobuf' }).end(contentType.includes('json') ? '{}' : '');
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    jsonBodies,
    setMode: (next) => (current = next),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

interface OtlpValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpKeyValue {
  key: string;
  value?: OtlpValue;
}
interface OtlpSpan {
  traceId: string | Uint8Array;
  spanId: string | Uint8Array;
  parentSpanId?: string | Uint8Array;
  name: string;
  kind?: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpKeyValue[];
  events?: Array<{ name: string; timeUnixNano: string | number; attributes?: OtlpKeyValue[] }>;
  status?: { code?: number; message?: string };
  links?: Array<{ traceId: string | Uint8Array; spanId: string | Uint8Array; attributes?: OtlpKeyValue[] }>;
}
interface OtlpRequest {
  resourceSpans?: Array<{ resource?: { attributes?: OtlpKeyValue[] }; scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

function flatten(request: OtlpRequest): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = attributes(resourceSpans.resource?.attributes);
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        out.push({
          traceId: id(span.traceId),
          spanId: id(span.spanId),
          parentSpanId: id(span.parentSpanId),
          name: span.name,
          kind: span.kind ?? 0,
          startMs: nanosToMs(span.startTimeUnixNano),
          endMs: nanosToMs(span.endTimeUnixNano),
          attributes: attributes(span.attributes),
          events: (span.events ?? []).map((event) => ({ name: event.name, timeMs: nanosToMs(event.timeUnixNano), attributes: attributes(event.attributes) })),
          status: { code: span.status?.code ?? 0, ...(span.status?.message ? { message: span.status.message } : {}) },
          links: (span.links ?? []).map((link) => ({ traceId: id(link.traceId), spanId: id(link.spanId), attributes: attributes(link.attributes) })),
          resource,
        });
      }
    }
  }
  return out;
}

function id(value: string | Uint8Array | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : Buffer.from(value).toString('hex');
}

function nanosToMs(value: string | number): number {
  return Number(BigInt(value) / 1_000_000n);
}

function attributes(list: OtlpKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
}

function valueOf(value: OtlpValue | undefined): AttributeValue {
  if (!value) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return null;
}
