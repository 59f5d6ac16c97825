import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { UsageError } from '../../errors/index.js';

/** One span of an OTLP/JSON file, with its attributes as plain values. */
export interface JsonSpan {
  traceId: string;
  spanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
  kvlistValue?: { values?: Array<{ key: string; value?: OtlpValue }> };
}
interface OtlpDocument {
  resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<{ traceId?: string; spanId?: string; name?: string; attributes?: Array<{ key: string; value?: OtlpValue }> }> }> }>;
}

/**
 * The spans of an OTLP/JSON traces file: one `ExportTraceServiceRequest` document, or one per
 * line as the collector's file exporter writes them; gzip-compressed or not.
 */
export async function readOtlpJson(path: string): Promise<JsonSpan[]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new UsageError('USAGE_FILE_NOT_FOUND', `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
  const documents: OtlpDocument[] = [];
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  try {
    for (const line of lines) documents.push(JSON.parse(line) as OtlpDocument);
  } catch {
    documents.length = 0;
    try {
      documents.push(JSON.parse(text) as OtlpDocument);
    } catch {
      throw new UsageError('USAGE_BAD_TRACES', `${path} is not OTLP/JSON`, { hint: 'give traces as the OTLP/JSON format (the collector\'s file exporter writes it), optionally gzipped' });
    }
  }
  const spans: JsonSpan[] = [];
  for (const document of documents) {
    for (const resource of document.resourceSpans ?? []) {
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          spans.push({
            traceId: span.traceId ?? '',
            spanId: span.spanId ?? '',
            name: span.name ?? '',
            attributes: Object.fromEntries((span.attributes ?? []).map((kv) => [kv.key, valueOf(kv.value)])),
          });
        }
      }
    }
  }
  return spans;
}

function valueOf(value: OtlpValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.kvlistValue !== undefined) return Object.fromEntries((value.kvlistValue.values ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
  return undefined;
}
