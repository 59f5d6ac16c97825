import { open, type FileHandle } from 'node:fs/promises';

/** Bytes read at a time: a read per 4 MB, and a batch's lines sit in one Buffer. */
const CHUNK = 4 << 20;
const NEWLINE = 0x0a;

/**
 * Whole lines of a run as bytes, never decoded: line k (0-based in the batch) is
 * `bytes[ends[k - 1] + 1 (0 for k = 0), ends[k])`, its `\n` at `ends[k]`; `bytes` is exactly the
 * lines, each with its `\n` (what the integrity record hashes).
 */
export interface LineBatch {
  readonly bytes: Buffer;
  /** Where each line's `\n` is. */
  readonly ends: Uint32Array;
  /** How many lines: ends.length may be larger. */
  readonly count: number;
  /** The place (0-based line number in the run) of the first line. */
  readonly first: number;
  /** What errors about a line name: the results file (or the store's run). */
  readonly file: string;
}

/** Where line `k` of the batch starts. */
export function lineStart(batch: LineBatch, k: number): number {
  return k === 0 ? 0 : (batch.ends[k - 1] as number) + 1;
}

/** The batch's lines from `skip` on (the same bytes, not copied). */
export function batchFrom(batch: LineBatch, skip: number): LineBatch {
  if (skip <= 0) return batch;
  const start = lineStart(batch, skip);
  const ends = batch.ends.subarray(skip, batch.count).map((end) => end - start);
  return { bytes: batch.bytes.subarray(start), ends, count: batch.count - skip, first: batch.first + skip, file: batch.file };
}

/** The batch's first `count` lines. */
export function batchUpTo(batch: LineBatch, count: number): LineBatch {
  if (count >= batch.count) return batch;
  const ends = batch.ends.subarray(0, count);
  return { ...batch, bytes: batch.bytes.subarray(0, count === 0 ? 0 : (ends[count - 1] as number) + 1), count, ends };
}

/** JS strings as a batch (the lines of appendRows): each its UTF-8, then a `\n`; a `\n` inside a line stays in it. */
export function batchOfLines(lines: readonly string[], first: number, file: string): LineBatch {
  let size = 0;
  for (const line of lines) size += Buffer.byteLength(line, 'utf8') + 1;
  const bytes = Buffer.allocUnsafe(size);
  const ends = new Uint32Array(lines.length);
  let at = 0;
  for (let k = 0; k < lines.length; k += 1) {
    at += bytes.write(lines[k] as string, at, 'utf8');
    ends[k] = at;
    bytes[at] = NEWLINE;
    at += 1;
  }
  return { bytes, ends, count: lines.length, first, file };
}

/**
 * The complete lines of a file from line `from` on (0-based), in batches of at most `maxLines`
 * lines, read in 4 MB chunks into fresh Buffers (a batch still being sent is never overwritten), a
 * batch's lines carried across chunks so that every batch but the last has `maxLines`:
 * a torn last line (no `\n` after it) is left out, as every reader of results.jsonl does. None
 * when the file does not exist.
 */
export async function* wholeLineBatches(path: string, from = 0, maxLines = 10_000): AsyncGenerator<LineBatch> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    // The bytes read but not yet yielded: lines of the batch being filled (`count` of them, ending
    // at `ends`), then the start of a line the last read cut.
    let carry: Buffer = Buffer.alloc(0);
    let ends = new Uint32Array(maxLines);
    let count = 0;
    let line = 0;
    for (;;) {
      // Copied once, from the last chunk into this one: the last chunk is freed once its batches are.
      const buffer = Buffer.allocUnsafe(carry.length + CHUNK);
      carry.copy(buffer, 0);
      const { bytesRead } = await file.read(buffer, carry.length, CHUNK, null);
      if (bytesRead === 0) break;
      const data = buffer.subarray(0, carry.length + bytesRead);
      // Where the batch starts in data, and where the next line does.
      let batchStart = 0;
      let start = count === 0 ? 0 : (ends[count - 1] as number) + 1;
      for (let nl = data.indexOf(NEWLINE, start); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
        if (line < from) batchStart = nl + 1;
        else {
          ends[count] = nl - batchStart;
          count += 1;
          if (count === maxLines) {
            yield { bytes: data.subarray(batchStart, nl + 1), ends, count, first: line + 1 - count, file: path };
            ends = new Uint32Array(maxLines);
            count = 0;
            batchStart = nl + 1;
          }
        }
        line += 1;
        start = nl + 1;
      }
      carry = data.subarray(batchStart);
    }
    if (count > 0) yield { bytes: carry.subarray(0, (ends[count - 1] as number) + 1), ends, count, first: line - count, file: path };
  } finally {
    await file.close();
  }
}
