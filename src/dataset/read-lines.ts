import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { DatasetError } from '../errors/index.js';
import { overlaidText } from '../source-overlay.js';

/** One raw line: its 1-based number and its bytes without the newline (and without a CR). */
export interface RawLine {
  line: number;
  bytes: Buffer;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** Bigger than the default 64 KiB: fewer chunks for large files, still constant memory. */
const CHUNK_SIZE = 256 * 1024;

/**
 * Streams a file's lines as bytes, splitting on `\n` ourselves so that decoding can be strict
 * per line (an invalid UTF-8 sequence is then an error naming its line). Only the current
 * partial line is ever buffered; a line inside one chunk is a zero-copy view of it. `onChunk`
 * sees every byte of the file, in order (a hash taken in the same read).
 */
export async function* readLines(file: string, signal?: AbortSignal, onChunk?: (chunk: Buffer) => void): AsyncGenerator<RawLine, void, undefined> {
  for await (const batch of readLineBatches(file, signal, onChunk)) {
    for (const line of batch) yield line;
  }
}

/**
 * `readLines` a chunk's lines at a time: one array per chunk read (256 KiB), for the readers
 * that go through every row of a large file (the dataset check, the run's row stream), where
 * an async generator's hand-over per line cost more than parsing the line.
 */
export async function* readLineBatches(file: string, signal?: AbortSignal, onChunk?: (chunk: Buffer) => void): AsyncGenerator<RawLine[], void, undefined> {
  signal?.throwIfAborted();
  const pending: Buffer[] = [];
  let line = 0;
  const open = overlaidText(file);
  // An editor's unsaved buffer is already in memory: one chunk, split the same way.
  const stream = open === undefined ? createReadStream(file, { highWaterMark: CHUNK_SIZE, ...(signal ? { signal } : {}) }) : Readable.from([Buffer.from(open)]);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      onChunk?.(chunk);
      const batch: RawLine[] = [];
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
        let bytes = chunk.subarray(start, end);
        if (pending.length > 0) {
          pending.push(bytes);
          bytes = Buffer.concat(pending);
          pending.length = 0;
        }
        batch.push(finish(++line, bytes));
        start = end + 1;
      }
      if (start < chunk.length) pending.push(chunk.subarray(start));
      if (batch.length > 0) yield batch;
    }
  } catch (error) {
    throw openError(error, file) ?? error;
  } finally {
    stream.destroy();
  }
  if (pending.length > 0) yield [finish(++line, Buffer.concat(pending))];
}

/** Drops a CR (CRLF files) and, on line 1, a UTF-8 byte-order mark. */
function finish(line: number, bytes: Buffer): RawLine {
  let view = bytes;
  if (view.length > 0 && view[view.length - 1] === CARRIAGE_RETURN) view = view.subarray(0, -1);
  if (line === 1 && view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf) view = view.subarray(3);
  return { line, bytes: view };
}

/** True for a line of only spaces and tabs: format.md says blank lines are skipped. */
export function isBlankLine(bytes: Buffer): boolean {
  for (const byte of bytes) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== CARRIAGE_RETURN) return false;
  }
  return true;
}

function openError(error: unknown, file: string): DatasetError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') {
    return new DatasetError('DATASET_NOT_FOUND', `dataset file not found: ${file}`, { location: { file } });
  }
  if (code === 'EISDIR') {
    return new DatasetError('DATASET_NOT_A_FILE', `dataset path is a folder, not a .jsonl file: ${file}`, { location: { file } });
  }
  return undefined;
}
