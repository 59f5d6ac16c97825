import { UsageError } from '../../errors/index.js';
import type { SourceLocation as Location } from '../../errors/index.js';

/** One span of an OTLP/JSON file, with its attributes as plain values. */
export interface JsonSpan {
  traceId: string;
  spanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

/** Attribute values nested deeper than this (lists in lists…) are refused: walking them recurses. */
export const MAX_VALUE_DEPTH = 64;

const HINT = "give traces as the OTLP/JSON format (the collector's file exporter writes it), optionally gzipped";

type Record_ = Record<string, unknown>;

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Reads one OTLP/JSON document's spans into `spans`, checking each part's type on the way: a
 * part of the wrong type (resourceSpans a number, attributes an object, a null span) is a
 * USAGE_BAD_TRACES naming its JSON path, never a TypeError. As in the protobuf JSON mapping, a
 * null field is its default (no spans, no attributes); a null inside a list is not.
 */
export function collectSpans(document: unknown, location: Location, spans: JsonSpan[]): void {
  const bad = (path: string, problem: string) => new UsageError('USAGE_BAD_TRACES', `${path} ${problem}, so the file is not OTLP/JSON`, { location, hint: HINT });
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new UsageError('USAGE_BAD_TRACES', 'not an OTLP/JSON document (an object with resourceSpans)', { location, hint: HINT });
  }
  const list = (value: unknown, path: string): unknown[] => {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) throw bad(path, `is ${kind(value)}, not a list`);
    return value;
  };
  const object = (value: unknown, path: string): Record_ => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw bad(path, `is ${kind(value)}, not an object`);
    return value as Record_;
  };
  const text = (value: unknown, path: string): string => {
    if (value === undefined || value === null) return '';
    if (typeof value !== 'string') throw bad(path, `is ${kind(value)}, not a string`);
    return value;
  };
  const valueOf = (value: unknown, path: string, depth: number): unknown => {
    if (value === undefined || value === null) return undefined;
    if (depth > MAX_VALUE_DEPTH) throw bad(path, `nests values deeper than ${MAX_VALUE_DEPTH} levels`);
    const any = object(value, path);
    if (any.stringValue !== undefined) return text(any.stringValue, `${path}.stringValue`);
    if (any.boolValue !== undefined) return any.boolValue === true;
    if (any.intValue !== undefined) return Number(any.intValue);
    if (any.doubleValue !== undefined) return Number(any.doubleValue);
    if (any.arrayValue !== undefined && any.arrayValue !== null) {
      const values = list(object(any.arrayValue, `${path}.arrayValue`).values, `${path}.arrayValue.values`);
      return values.map((item, i) => valueOf(item, `${path}.arrayValue.values[${i}]`, depth + 1));
    }
    if (any.kvlistValue !== undefined && any.kvlistValue !== null) return keyValues(object(any.kvlistValue, `${path}.kvlistValue`).values, `${path}.kvlistValue.values`, depth + 1);
    return undefined;
  };
  const keyValues = (value: unknown, path: string, depth: number): Record_ => {
    const entries: Array<[string, unknown]> = list(value, path).map((item, i) => {
      const kv = object(item, `${path}[${i}]`);
      if (typeof kv.key !== 'string') throw bad(`${path}[${i}].key`, `is ${kind(kv.key)}, not a string`);
      return [kv.key, valueOf(kv.value, `${path}[${i}].value`, depth)];
    });
    return Object.fromEntries(entries);
  };
  const resources = list((document as Record_).resourceSpans, 'resourceSpans');
  resources.forEach((resource, r) => {
    const scopes = list(object(resource, `resourceSpans[${r}]`).scopeSpans, `resourceSpans[${r}].scopeSpans`);
    scopes.forEach((scope, s) => {
      const at = `resourceSpans[${r}].scopeSpans[${s}]`;
      list(object(scope, at).spans, `${at}.spans`).forEach((item, i) => {
        const path = `${at}.spans[${i}]`;
        const span = object(item, path);
        spans.push({
          traceId: text(span.traceId, `${path}.traceId`),
          spanId: text(span.spanId, `${path}.spanId`),
          name: text(span.name, `${path}.name`),
          attributes: keyValues(span.attributes, `${path}.attributes`, 1),
        });
      });
    });
  });
}
