import { open, type FileHandle } from 'node:fs/promises';
import { ResultsHash, type FoundResults } from './results-integrity.js';
import { RowOffsets } from './row-offsets.js';
import { RunStoreError } from './store-error.js';
import type { RowResult } from '../experiment/types.js';

/** Bytes read at a time. */
const CHUNK = 1 << 20;
const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;

// `JSON.stringify` of a RowResult starts with these keys in this order (see row-pipeline.ts):
// reading them from the bytes skips decoding and parsing every row during the scan.
const INDEX = Buffer.from('{"index":');
const LINE = Buffer.from(',"line":');
const REPEAT = Buffer.from(',"repeat":');
const HEAD = /^\{"index":(\d+),"line":\d+,"repeat":(\d+)[,}]/;

/** What a scan found: where each row is, and what checkResults compares with the manifest. */
export interface ScannedResults extends FoundResults {
  offsets: RowOffsets;
}

/**
 * Reads a results file once, in 1 MB chunks, and notes where every complete row is (index,
 * repeat, byte offset and length, 32 bytes a row) while hashing its complete lines a chunk at a
 * time (a torn last line is left out of both). Rows written by the runner are read from their
 * bytes; any other line is decoded and parsed, and a line that is not a row is an error naming
 * its line number.
 */
export async function scanResults(path: string): Promise<ScannedResults> {
  const offsets = new RowOffsets();
  const hash = new ResultsHash();
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return { offsets, ...hash.value(), missing: true, torn: false };
  }
  let torn = false;
  try {
    let buffer = Buffer.allocUnsafe(CHUNK);
    // buffer[0, carry) is the start of a line the last read cut; it sits at `position` in the file.
    let carry = 0;
    let position = 0;
    let line = 0;
    for (;;) {
      if (carry === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
      const { bytesRead } = await file.read(buffer, carry, buffer.length - carry, position + carry);
      if (bytesRead === 0) {
        torn = carry > 0;
        break;
      }
      const data = buffer.subarray(0, carry + bytesRead);
      let start = 0;
      let rows = 0;
      for (let nl = data.indexOf(NEWLINE, start); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
        line += 1;
        if (data[start] === OPEN_BRACE) {
          const head = headOf(data, start);
          const [index, repeat] = head ?? indexAndRepeat(data.toString('utf8', start, nl), path, line);
          offsets.add(index, repeat, position + start, nl + 1 - start);
          rows += 1;
        } else {
          const text = data.toString('utf8', start, nl);
          if (text.trim() !== '') {
            const [index, repeat] = indexAndRepeat(text, path, line);
            offsets.add(index, repeat, position + start, nl + 1 - start);
            rows += 1;
          }
        }
        start = nl + 1;
      }
      if (start > 0) hash.update(data.subarray(0, start), rows);
      carry = data.length - start;
      data.copy(buffer, 0, start);
      position += start;
    }
  } finally {
    await file.close();
  }
  return { offsets, ...hash.value(), missing: false, torn };
}

/**
 * `[index, repeat]` of the line at data[start, end) (its `\n` at `end`): read from its bytes when
 * the runner wrote it, else decoded and parsed; the error names `file` and `line` (1-based).
 */
export function keyOfLine(data: Buffer, start: number, end: number, file: string, line: number): [number, number] {
  return (data[start] === OPEN_BRACE ? headOf(data, start) : undefined) ?? indexAndRepeat(data.toString('utf8', start, end), file, line);
}

/** `[index, repeat]` read from the bytes of a row as the runner writes it, or undefined. */
function headOf(data: Buffer, start: number): [number, number] | undefined {
  let at = start;
  if (!startsWith(data, at, INDEX)) return undefined;
  at += INDEX.length;
  const index = digits(data, at);
  if (index === undefined) return undefined;
  at = index.end;
  if (!startsWith(data, at, LINE)) return undefined;
  const line = digits(data, at + LINE.length);
  if (line === undefined) return undefined;
  at = line.end;
  if (!startsWith(data, at, REPEAT)) return undefined;
  const repeat = digits(data, at + REPEAT.length);
  if (repeat === undefined) return undefined;
  const next = data[repeat.end];
  if (next !== 0x2c && next !== 0x7d) return undefined;
  return [index.value, repeat.value];
}

function startsWith(data: Buffer, at: number, prefix: Buffer): boolean {
  if (at + prefix.length > data.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (data[at + i] !== prefix[i]) return false;
  return true;
}

/** A run of 1–15 digits at `at` (exact as a double), or undefined. */
function digits(data: Buffer, at: number): { value: number; end: number } | undefined {
  let value = 0;
  let end = at;
  while (end < data.length) {
    const byte = data[end] as number;
    if (byte < 0x30 || byte > 0x39) break;
    value = value * 10 + (byte - 0x30);
    end += 1;
  }
  if (end === at || end - at > 15) return undefined;
  return { value, end };
}

/** `[index, repeat]` of a line that is not in the runner's own shape (parsed), or the error naming it. */
export function indexAndRepeat(text: string, file: string, line: number): [number, number] {
  const match = HEAD.exec(text);
  if (match) return [Number(match[1]), Number(match[2])];
  try {
    const row = JSON.parse(text) as Partial<RowResult>;
    if (typeof row.index === 'number' && typeof row.repeat === 'number') return [row.index, row.repeat];
  } catch {
    // reported below
  }
  throw new RunStoreError('STORE_CORRUPT_RESULTS', `line ${line} is not a result row`, {
    location: { file, line },
    hint: 'the results file was edited or damaged; remove the line to use this run again',
  });
}
