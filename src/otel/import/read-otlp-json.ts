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
  const hint = "give traces as the OTLP/JSON format (the collector's file exporter writes it), optionally gzipped";
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? 'USAGE_FILE_NOT_FOUND' : 'USAGE_BAD_TRACES', `cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (code ?? String(error))}`, {
      hint: code === 'ENOENT' ? 'check the path (relative to this folder)' : 'give a traces file',
    });
  }
  let text: string;
  try {
    text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
  } catch (error) {
    throw new UsageError('USAGE_BAD_TRACES', `not a whole gzip file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`, { location: { file: path }, hint: 'compress it again, or give it uncompressed' });
  }
  const documents = parseDocuments(path, text, hint);
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

/**
 * One document for the whole text, else one a line (the file exporter's JSONL): a bad line is
 * named by its number, and a line that is JSON but not a document (null, a number) is refused.
 */
function parseDocuments(path: string, text: string, hint: string): OtlpDocument[] {
  const whole = tryParse(text);
  const lines = whole.ok ? [] : text.split('\n');
  const values: unknown[] = whole.ok ? [whole.value] : [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === '') continue;
    const parsed = tryParse(line);
    if (!parsed.ok) throw new UsageError('USAGE_BAD_TRACES', 'this line is not JSON, so the file is not OTLP/JSON', { location: { file: path, line: i + 1, column: 1 }, hint });
    values.push(parsed.value);
  }
  return values.map((value, i) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      const location = whole.ok ? { file: path } : { file: path, line: lineOf(lines, i), column: 1 };
      throw new UsageError('USAGE_BAD_TRACES', 'not an OTLP/JSON document (an object with resourceSpans)', { location, hint });
    }
    return value as OtlpDocument;
  });
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The 1-based line number of the `nth` non-blank line. */
function lineOf(lines: readonly string[], nth: number): number {
  let seen = -1;
  for (let i = 0; i < lines.length; i++) if ((lines[i] as string).trim() !== '' && ++seen === nth) return i + 1;
  return lines.length;
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
