import type { Attributes, AttributeValue, Link } from '@opentelemetry/api';
import { ATTRIBUTE_LIMIT, type LeanSpanData } from './lean-span.js';
import { ProtoWriter, varintSize as lengthOf } from './proto-writer.js';

/**
 * OTLP/protobuf (opentelemetry/proto/trace/v1/trace.proto and common.proto) for the lean spans,
 * the same messages OpenTelemetry's own serializer writes: a span's attributes in their order,
 * `dropped_*` counts, its status, flags 0x101 (sampled; the parent is not remote).
 */

/** OTLP's SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK, with the sampled trace flag. */
const SPAN_FLAGS = 0x100 | 0x01;

/** A value the SDK keeps on a span: a primitive or a list of one primitive type (nulls allowed). */
function validValue(value: unknown): value is AttributeValue {
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean') return true;
  if (!Array.isArray(value)) return false;
  let seen: string | undefined;
  for (const item of value as unknown[]) {
    if (item === null || item === undefined) continue;
    const itemType = typeof item;
    if (itemType !== 'string' && itemType !== 'number' && itemType !== 'boolean') return false;
    if (seen === undefined) seen = itemType;
    else if (seen !== itemType) return false;
  }
  return true;
}

function writeAnyValue(w: ProtoWriter, value: unknown): void {
  switch (typeof value) {
    case 'string':
      w.tag(1, 2);
      w.string(value);
      return;
    case 'boolean':
      w.tag(2, 0);
      w.varint(value ? 1 : 0);
      return;
    case 'number':
      if (Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63 && Number.isSafeInteger(value)) {
        w.tag(3, 0);
        w.int64(value);
      } else {
        w.tag(4, 1);
        w.double(value);
      }
      return;
    default:
      if (Array.isArray(value)) {
        w.tag(5, 2);
        const array = w.begin();
        for (const item of value as unknown[]) {
          w.tag(1, 2);
          const at = w.begin();
          writeAnyValue(w, item);
          w.end(at);
        }
        w.end(array);
      }
  }
}

/** The key's bytes (tag, length, UTF-8) once per key: every span repeats the same few dozen. */
const keyBytes = new Map<string, Buffer>();
function writeKey(w: ProtoWriter, key: string): void {
  let bytes = keyBytes.get(key);
  if (bytes === undefined) {
    const kw = new ProtoWriter(key.length * 3 + 8);
    kw.tag(1, 2);
    kw.string(key);
    bytes = Buffer.from(kw.bytes());
    if (keyBytes.size < 4096) keyBytes.set(key, bytes);
  }
  w.raw(bytes);
}

/**
 * The last KeyValue written for each key, whole (key and value): most values repeat span after
 * span (the experiment's id and name, the model, the server, `false`, `CHAIN`), and are then
 * copied as bytes instead of encoded again.
 */
const lastKeyValue = new Map<string, { value: string | number | boolean; bytes: Buffer | undefined }>();

function writeKeyValue(w: ProtoWriter, key: string, value: AttributeValue | null): void {
  const primitive = value !== null && typeof value !== 'object';
  const last = primitive ? lastKeyValue.get(key) : undefined;
  if (last !== undefined && last.value === value && last.bytes !== undefined) {
    w.raw(last.bytes);
    return;
  }
  const from = w.pos;
  const kv = w.begin();
  writeKey(w, key);
  w.tag(2, 2);
  const any = w.begin();
  if (value !== null) writeAnyValue(w, value);
  w.end(any);
  w.end(kv);
  if (!primitive) return;
  // Bytes are kept only for a value seen twice in a row, and only short ones: a value that
  // changes span by span (an index, an id) would cost a copy each time and never be reused.
  if (last === undefined) {
    if (lastKeyValue.size < 4096) lastKeyValue.set(key, { value, bytes: undefined });
  } else if (last.value !== value) {
    last.value = value;
    last.bytes = undefined;
  } else if (w.pos - from <= 96) last.bytes = Buffer.from(w.buf.subarray(from, w.pos));
}

/**
 * Repeated attributes with `field`; returns how many were dropped past the limit. `keepNull`:
 * an event's or link's null value is kept as an empty value (the SDK's sanitising keeps it),
 * a span's is not set at all.
 */
function writeAttributes(w: ProtoWriter, attributes: Attributes | undefined, field: number, limit: number, keepNull: boolean): number {
  if (attributes === undefined) return 0;
  let count = 0;
  let dropped = 0;
  for (const key in attributes) {
    if (!Object.prototype.hasOwnProperty.call(attributes, key) || key.length === 0) continue;
    const value = attributes[key];
    if (value === null || value === undefined) {
      if (!keepNull || value === undefined) continue;
    } else if (!validValue(value)) continue;
    if (count >= limit) {
      dropped += 1;
      continue;
    }
    count += 1;
    w.tag(field, 2);
    writeKeyValue(w, key, value);
  }
  return dropped;
}

function writeLink(w: ProtoWriter, link: Link): void {
  w.tag(13, 2);
  const at = w.begin();
  w.tag(1, 2);
  w.hexBytes(link.context.traceId);
  w.tag(2, 2);
  w.hexBytes(link.context.spanId);
  const dropped = writeAttributes(w, link.attributes, 4, 128, true);
  w.tag(5, 0);
  w.varint(dropped);
  w.tag(6, 5);
  w.fixed32(0x100 | (link.context.traceFlags & 0xff) | (link.context.isRemote ? 0x200 : 0));
  w.end(at);
}

/** One span as `ScopeSpans.spans` (field 2). */
export function writeSpan(w: ProtoWriter, span: LeanSpanData): void {
  w.tag(2, 2);
  const at = w.begin();
  w.tag(1, 2);
  w.hexBytes(span.traceId);
  w.tag(2, 2);
  w.hexBytes(span.spanId);
  if (span.parentSpanId !== undefined) {
    w.tag(4, 2);
    w.hexBytes(span.parentSpanId);
  }
  w.tag(5, 2);
  w.string(span.name);
  // OTLP's kinds are the API's plus one (0 is UNSPECIFIED).
  w.tag(6, 0);
  w.varint(span.kind + 1);
  w.tag(7, 1);
  w.fixed64Ms(span.startMs);
  w.tag(8, 1);
  w.fixed64Ms(span.endMs);
  const droppedAttributes = writeAttributes(w, span.attributes, 9, ATTRIBUTE_LIMIT, false);
  w.tag(10, 0);
  w.varint(droppedAttributes);
  for (const event of span.events) {
    w.tag(11, 2);
    const e = w.begin();
    w.tag(1, 1);
    w.fixed64Ms(event.timeMs);
    w.tag(2, 2);
    w.string(event.name);
    const dropped = writeAttributes(w, event.attributes, 3, 128, true);
    w.tag(4, 0);
    w.varint(dropped);
    w.end(e);
  }
  w.tag(12, 0);
  w.varint(span.droppedEvents);
  for (const link of span.links) writeLink(w, link);
  w.tag(14, 0);
  w.varint(0);
  w.tag(15, 2);
  const status = w.begin();
  if (span.status.message) {
    w.tag(2, 2);
    w.string(span.status.message);
  }
  w.tag(3, 0);
  w.varint(span.status.code);
  w.end(status);
  w.tag(16, 5);
  w.fixed32(SPAN_FLAGS);
  w.end(at);
}

/**
 * The ExportTraceServiceRequest around spans already written by `writeSpan` (`body`): one
 * resource (service name and version) and one instrumentation scope.
 */
export function requestAround(body: Uint8Array, service: { name: string; version: string }): Buffer {
  const head = new ProtoWriter(256);
  // Resource { attributes = 1, dropped_attributes_count = 2 }
  const resource = new ProtoWriter(128);
  writeAttributes(resource, { 'service.name': service.name, 'service.version': service.version }, 1, ATTRIBUTE_LIMIT, false);
  resource.tag(2, 0);
  resource.varint(0);
  // InstrumentationScope { name = 1, version = 2 }
  const scope = new ProtoWriter(128);
  scope.tag(1, 2);
  scope.string(service.name);
  scope.tag(2, 2);
  scope.string(service.version);
  const scopeSpansLength = 1 + lengthOf(scope.pos) + scope.pos + body.length;
  const resourceSpansLength = 1 + lengthOf(resource.pos) + resource.pos + 1 + lengthOf(scopeSpansLength) + scopeSpansLength;
  // ExportTraceServiceRequest.resource_spans = 1
  head.tag(1, 2);
  head.varint(resourceSpansLength);
  // ResourceSpans.resource = 1
  head.tag(1, 2);
  head.varint(resource.pos);
  head.raw(resource.bytes());
  // ResourceSpans.scope_spans = 2
  head.tag(2, 2);
  head.varint(scopeSpansLength);
  // ScopeSpans.scope = 1, then its spans (field 2, already in body)
  head.tag(1, 2);
  head.varint(scope.pos);
  head.raw(scope.bytes());
  return Buffer.concat([head.bytes(), body]);
}
