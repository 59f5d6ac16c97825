import { constants } from 'node:buffer';
import { UsageError } from '../../errors/index.js';
import { collectSpans, type JsonSpan } from './otlp-spans.js';
import { DEFAULT_MAX_TRACE_BYTES, traceBytes } from './trace-bytes.js';

export type { JsonSpan } from './otlp-spans.js';

const HINT = "give traces as the OTLP/JSON format (the collector's file exporter writes it), optionally gzipped";
/** The longest text V8 makes: a document (or line) longer cannot be parsed at all. */
const MAX_TEXT = constants.MAX_STRING_LENGTH;

export interface ReadTracesOptions {
  /** Bytes read of the file at most, decompressed. @default 1 GiB */
  maxBytes?: number;
}

/**
 * The spans of an OTLP/JSON traces file: one `ExportTraceServiceRequest` document, or one per
 * line as the collector's file exporter writes them; gzip-compressed or not. Read as a stream
 * (see traceBytes): a file of documents a line holds one line at a time, whatever its size.
 */
export async function readOtlpJson(path: string, options: ReadTracesOptions = {}): Promise<JsonSpan[]> {
  const reader = new DocumentReader(path);
  for await (const chunk of traceBytes(path, options.maxBytes ?? DEFAULT_MAX_TRACE_BYTES)) reader.push(chunk);
  reader.end();
  return reader.spans;
}

/**
 * Splits the bytes into lines and reads each as a document while the first one parsed (the file
 * exporter's JSON lines). When the first non-blank line is not JSON on its own, the file is one
 * document over several lines (pretty-printed): it is kept whole and parsed at the end. A bad
 * line is named by its number.
 */
class DocumentReader {
  readonly spans: JsonSpan[] = [];
  #mode: 'start' | 'lines' | 'whole' = 'start';
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #line = 0;
  /** The first non-blank line, where a whole document that does not parse is reported. */
  #firstLine = 0;
  #kept: Buffer[] = [];
  #started = false;
  #keptBytes = 0;

  constructor(readonly path: string) {}

  push(chunk: Buffer): void {
    if (this.#mode === 'whole') return this.#keep(chunk);
    const n = chunk.length;
    // A byte order mark opening the file (as datasets allow) is no part of the first document.
    let i = this.#started || !(chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) ? 0 : 3;
    this.#started = true;
    while (i < n) {
      if (this.#pendingBytes === 0) {
        // Blank space between documents, a byte at a time (newlines counted): fast however much of it.
        for (let b = chunk[i] as number; b === 0x0a || b === 0x20 || b === 0x09 || b === 0x0d; b = chunk[i] as number) {
          if (b === 0x0a) this.#line += 1;
          if (++i === n) return;
        }
      }
      const nl = chunk.indexOf(0x0a, i);
      if (nl === -1) {
        // A line going on past this chunk must be a document, which starts with "{": anything else
        // (a gzip bomb of zeros) is refused now, not held until the bound.
        if (this.#pendingBytes === 0 && chunk[i] !== 0x7b) throw this.#notJson(this.#line + 1);
        this.#pendingBytes += n - i;
        if (this.#pendingBytes > MAX_TEXT) throw this.#tooLong(this.#line + 1);
        this.#pending.push(chunk.subarray(i));
        return;
      }
      const piece = chunk.subarray(i, nl);
      const line = this.#pendingBytes === 0 ? piece : Buffer.concat([...this.#pending, piece]);
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#line += 1;
      i = nl + 1;
      if (!this.#onLine(line, this.#line)) {
        // Not a document a line: the whole file is one, kept from its first line.
        this.#keep(line);
        this.#keep(chunk.subarray(nl));
        return;
      }
    }
  }

  end(): void {
    if (this.#mode !== 'whole' && this.#pendingBytes > 0) {
      const line = Buffer.concat(this.#pending);
      this.#pending = [];
      if (!this.#onLine(line, this.#line + 1)) this.#keep(line);
    }
    if (this.#mode !== 'whole') return;
    const text = Buffer.concat(this.#kept).toString('utf8');
    this.#kept = [];
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      throw this.#notJson(this.#firstLine);
    }
    collectSpans(value, { file: this.path }, this.spans);
  }

  /** One line, not blank; false when it is the first and not JSON (the file is one document over lines). */
  #onLine(bytes: Buffer, line: number): boolean {
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8')) as unknown;
    } catch {
      if (this.#mode === 'start') {
        this.#mode = 'whole';
        this.#firstLine = line;
        return false;
      }
      throw this.#notJson(line);
    }
    this.#mode = 'lines';
    collectSpans(value, { file: this.path, line, column: 1 }, this.spans);
    return true;
  }

  #keep(bytes: Buffer): void {
    this.#mode = 'whole';
    this.#keptBytes += bytes.length;
    if (this.#keptBytes > MAX_TEXT) throw this.#tooLong(this.#firstLine);
    this.#kept.push(bytes);
  }

  #notJson(line: number): UsageError {
    return new UsageError('USAGE_BAD_TRACES', 'this line is not JSON, so the file is not OTLP/JSON', { location: { file: this.path, line, column: 1 }, hint: HINT });
  }

  #tooLong(line: number): UsageError {
    return new UsageError('USAGE_TRACES_TOO_LARGE', `one document longer than ${Math.floor(MAX_TEXT / 1024 ** 2)} MiB, the most one JSON text can be read as`, {
      location: { file: this.path, line, column: 1 },
      hint: "write one document a line (the collector's file exporter does), or split the file",
    });
  }
}
