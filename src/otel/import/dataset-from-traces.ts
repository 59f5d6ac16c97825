import { appendFile, readFile } from 'node:fs/promises';
import { canonicalJson } from '../../canonical-json.js';
import { readOtlpJson } from './read-otlp-json.js';
import { spanToRow } from './span-to-row.js';

export interface FromTracesOptions {
  /** Only spans of this name. */
  spanName?: string;
  /** Write at most this many rows. */
  limit?: number;
  /** Keep what the span's model produced as `expected_output`. */
  expected?: 'output';
  /** Bytes read of each traces file at most, decompressed. @default 1 GiB */
  maxBytes?: number;
}

export interface FromTracesResult {
  written: number;
  /** Rows the file already held (same input and expected output), or repeated in the traces. */
  skipped: number;
}

/**
 * Appends dataset rows taken from traces (OTLP/JSON files) to `path`: `input`, with
 * `--expected output` the produced output as `expected_output`, and `source` naming the trace
 * and span. A row with the same input and expected output as one already in the file is not
 * written again.
 */
export async function datasetFromTraces(files: readonly string[], path: string, options: FromTracesOptions = {}): Promise<FromTracesResult> {
  const present = await keysIn(path);
  const lines: string[] = [];
  let skipped = 0;
  for (const file of files) {
    for (const span of await readOtlpJson(file, options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes })) {
      if (options.limit !== undefined && lines.length >= options.limit) break;
      if (options.spanName !== undefined && span.name !== options.spanName) continue;
      const row = spanToRow(span, file);
      if (!row) continue;
      const expected = options.expected === 'output' ? row.output : undefined;
      const key = keyOf(row.input, expected);
      if (present.has(key)) {
        skipped += 1;
        continue;
      }
      present.add(key);
      lines.push(JSON.stringify({ input: row.input, ...(expected === undefined ? {} : { expected_output: expected }), source: { trace: row.traceId, span: row.spanId } }));
    }
  }
  if (lines.length > 0) {
    const before = await readFile(path, 'utf8').catch(() => '');
    await appendFile(path, `${before === '' || before.endsWith('\n') ? '' : '\n'}${lines.join('\n')}\n`);
  }
  return { written: lines.length, skipped };
}

function keyOf(input: unknown, expected: unknown): string {
  return canonicalJson({ input, expected: expected ?? null });
}

async function keysIn(path: string): Promise<Set<string>> {
  const text = await readFile(path, 'utf8').catch(() => '');
  const keys = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const row = JSON.parse(line) as { input?: unknown; expected_output?: unknown };
      keys.add(keyOf(row.input, row.expected_output));
    } catch {
      // A line the dataset reader will report; not ours to judge here.
    }
  }
  return keys;
}
