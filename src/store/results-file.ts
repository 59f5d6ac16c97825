import { open, stat, truncate } from 'node:fs/promises';
import type { RowResult } from '../experiment/types.js';
import { RunStoreError } from './store-error.js';

/** A stored row and the byte offset just after its line, so a torn tail can be cut off exactly. */
export interface StoredRow {
  row: RowResult;
  end: number;
}

interface RawLine {
  text: string;
  /** 1-based line number. */
  line: number;
  /** Byte offset just after the line's newline (or the end of file for an unterminated line). */
  end: number;
  terminated: boolean;
}

const CHUNK = 1 << 16;
const NEWLINE = 0x0a;

/** Splits on bytes, not characters: offsets stay exact and `\n` never occurs inside UTF-8. */
export async function* readRawLines(path: string): AsyncGenerator<RawLine> {
  const file = await open(path, 'r');
  try {
    let carry: Buffer = Buffer.alloc(0);
    let carryStart = 0;
    let position = 0;
    let line = 0;
    const buffer = Buffer.alloc(CHUNK);
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, CHUNK, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const data = carry.length > 0 ? Buffer.concat([carry, buffer.subarray(0, bytesRead)]) : buffer.subarray(0, bytesRead);
      let start = 0;
      for (let nl = data.indexOf(NEWLINE, start); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
        line += 1;
        yield { text: data.toString('utf8', start, nl), line, end: carryStart + nl + 1, terminated: true };
        start = nl + 1;
      }
      // Copy: `buffer` is reused by the next read.
      carry = Buffer.from(data.subarray(start));
      carryStart += start;
    }
    if (carry.length > 0) {
      yield { text: carry.toString('utf8'), line: line + 1, end: carryStart + carry.length, terminated: false };
    }
  } finally {
    await file.close();
  }
}

function parseRow(text: string): RowResult | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const candidate = value as Partial<RowResult>;
    if (typeof candidate.index !== 'number' || typeof candidate.repeat !== 'number') return undefined;
    return value as RowResult;
  } catch {
    return undefined;
  }
}

/**
 * Streams the complete rows of a results file. A torn last line (a process killed mid-write:
 * no newline, or not JSON) is skipped; a bad line with rows after it means the file was
 * damaged some other way, and hiding that would silently lose rows, so it is an error.
 * `onLine` sees every line up to the last row's end (blank ones too): what a resume keeps, to hash it.
 */
export async function* readStoredRows(path: string, onLine?: (text: string) => void): AsyncGenerator<StoredRow> {
  let bad: RawLine | undefined;
  // Blank lines count only once a row follows: after the last row they are cut off with a torn tail.
  const blanks: string[] = [];
  for await (const raw of readRawLines(path)) {
    if (bad) {
      throw new RunStoreError('STORE_CORRUPT_RESULTS', `line ${bad.line} is not a result row`, {
        location: { file: path, line: bad.line },
        hint: 'the results file was edited or damaged; remove the line to use this run again',
      });
    }
    if (!raw.terminated) return;
    if (raw.text.trim() === '') {
      blanks.push(raw.text);
      continue;
    }
    const row = parseRow(raw.text);
    if (row === undefined) {
      bad = raw;
      continue;
    }
    if (onLine) {
      for (const blank of blanks) onLine(blank);
      onLine(raw.text);
    }
    blanks.length = 0;
    yield { row, end: raw.end };
  }
}

/** Rows of a results file, in file order, streamed. */
export async function* readResultsFile(path: string): AsyncGenerator<RowResult> {
  for await (const { row } of readStoredRows(path)) yield row;
}

/** Cuts the file back to `validEnd` when anything (a torn line) follows it; true if it did. */
export async function dropTail(path: string, validEnd: number): Promise<boolean> {
  const { size } = await stat(path);
  if (size <= validEnd) return false;
  await truncate(path, validEnd);
  return true;
}
