import type { PoolClient } from 'pg';
import { lineStart, type LineBatch } from '../line-batch.js';
import type { LineKeys } from '../line-keys.js';
import { RunStoreError } from '../store-error.js';

/** COPY's binary header: an 11-byte signature, 32-bit flags (0), then a 32-bit extension length (0). */
const HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
/** A tuple's fixed part: field count, then run_id's length (its bytes follow), seq, idx and rep as 4-byte length + int4, then line's length. */
const FIXED = 2 + 4 + 3 * 8 + 4;
const INT4_MIN = -(2 ** 31);
const INT4_MAX = 2 ** 31 - 1;

/** COPYs the batch's lines in at their places (batch.first on) on the caller's connection and transaction. */
export async function copyRowsIn(client: PoolClient, runId: string, batch: LineBatch, keys: LineKeys): Promise<void> {
  const { from: copyFrom } = await import('pg-copy-streams');
  const room = spare.pop();
  const input = copyBinaryRows(runId, batch, keys, room);
  const stream = client.query(copyFrom('COPY agentmark_rows (run_id, seq, idx, rep, line) FROM STDIN (FORMAT binary)'));
  try {
    await new Promise<void>((resolve, reject) => {
      stream.on('error', reject);
      stream.on('finish', () => resolve());
      stream.end(input);
    });
  } catch (error) {
    throw copyEncodingError(error, batch);
  }
  // The server has read it all (finish comes after its CommandComplete): the next page reuses the
  // memory (a fresh 5 MB Buffer a page kept the garbage collector busy for seconds a million rows).
  const reused = room !== undefined && input.buffer === room.buffer && input.byteOffset === room.byteOffset;
  if (spare.length < SPARE) spare.push(reused ? room : input);
}

/** Buffers of pages sent, for the next ones (two: the pages of two concurrent writers). */
const spare: Buffer[] = [];
const SPARE = 2;

/**
 * The whole `COPY agentmark_rows (run_id, seq, idx, rep, line) FROM STDIN (FORMAT binary)` input
 * for the batch's lines, one Buffer (in `room` when it is large enough): header, one tuple a line (its place in the run, its key, its
 * bytes as they are: text in binary COPY is the raw UTF-8, nothing escaped), trailer. The lines
 * are never decoded; the server checks their encoding (see copyEncodingError).
 */
export function copyBinaryRows(runId: string, batch: LineBatch, keys: LineKeys, room?: Buffer): Buffer {
  const id = Buffer.from(runId, 'utf8');
  // The lines' bytes without their `\n`s, plus each tuple's fixed part and run id.
  const size = HEADER.length + batch.bytes.length - batch.count + batch.count * (FIXED + id.length) + 2;
  const out = room !== undefined && room.length >= size ? room.subarray(0, size) : Buffer.allocUnsafe(size);
  HEADER.copy(out, 0);
  let at = HEADER.length;
  for (let k = 0; k < batch.count; k += 1) {
    const start = lineStart(batch, k);
    const end = batch.ends[k] as number;
    const place = batch.first + k;
    out.writeInt16BE(5, at);
    out.writeInt32BE(id.length, at + 2);
    at += 6 + id.copy(out, at + 6);
    out.writeInt32BE(4, at);
    out.writeInt32BE(int4(place, 'place', batch, k), at + 4);
    out.writeInt32BE(4, at + 8);
    out.writeInt32BE(int4(keys.index[k] as number, 'index', batch, k), at + 12);
    out.writeInt32BE(4, at + 16);
    out.writeInt32BE(int4(keys.repeat[k] as number, 'repeat', batch, k), at + 20);
    out.writeInt32BE(end - start, at + 24);
    at += 28 + batch.bytes.copy(out, at + 28, start, end);
  }
  out.writeInt16BE(-1, at);
  return out;
}

/** A value the integer columns hold, or STORE_CORRUPT_RESULTS naming the line (the text format left that to the server). */
function int4(value: number, what: string, batch: LineBatch, k: number): number {
  if (Number.isInteger(value) && value >= INT4_MIN && value <= INT4_MAX) return value;
  throw new RunStoreError('STORE_CORRUPT_RESULTS', `line ${batch.first + k + 1} has ${what} ${value}, which the store cannot hold (a 32-bit integer)`, {
    location: { file: batch.file, line: batch.first + k + 1 },
    hint: 'the results file was edited or damaged; remove the line to use this run again',
  });
}

/**
 * The server's refusal of a line's bytes (22021: not valid UTF-8, or a NUL, which text cannot
 * hold; 22P05: not in the database's encoding) as STORE_CORRUPT_RESULTS naming the line: the
 * error's context says which tuple of the COPY ("COPY agentmark_rows, line 3, column line").
 * Any other error is given back as it is.
 */
export function copyEncodingError(error: unknown, batch: LineBatch): unknown {
  const { code, where, message } = error as { code?: string; where?: string; message?: string };
  if (code !== '22021' && code !== '22P05') return error;
  const tuple = /line (\d+)/.exec(where ?? '');
  const k = tuple === null ? undefined : Number(tuple[1]) - 1;
  const line = k !== undefined && k >= 0 && k < batch.count ? batch.first + k + 1 : undefined;
  const which = line === undefined ? `a line of lines ${batch.first + 1}–${batch.first + batch.count}` : `line ${line}`;
  return new RunStoreError('STORE_CORRUPT_RESULTS', `${which} is not valid UTF-8 text, so the store cannot hold it (${message ?? code})`, {
    location: line === undefined ? { file: batch.file } : { file: batch.file, line },
    hint: 'the results file was edited or damaged (agentmark writes UTF-8 JSON, NUL as \\u0000); fix or remove the line to push this run',
    cause: error,
  });
}
