import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { UsageError } from '../../errors/index.js';

/** What `dataset from-traces` reads of one file at most, decompressed: 1 GiB. */
export const DEFAULT_MAX_TRACE_BYTES = 1024 ** 3;

/** A byte count as a person reads it: `1 GiB`, `10 MiB`, `1,000 bytes`. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [['GiB', 1024 ** 3], ['MiB', 1024 ** 2], ['KiB', 1024]] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes.toLocaleString('en-US')} bytes`;
}

function tooLarge(path: string, maxBytes: number, gzip: boolean): UsageError {
  return new UsageError('USAGE_TRACES_TOO_LARGE', `more than ${formatBytes(maxBytes)}${gzip ? ' once decompressed' : ''} (--max-bytes ${maxBytes})`, {
    location: { file: path },
    hint: 'split the traces into smaller files, or raise --max-bytes if the file is what you meant',
  });
}

async function isGzip(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? 'USAGE_FILE_NOT_FOUND' : 'USAGE_BAD_TRACES', `cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (code ?? String(error))}`, {
      hint: code === 'ENOENT' ? 'check the path (relative to this folder)' : 'give a traces file',
    });
  } finally {
    await handle?.close();
  }
}

/**
 * The bytes of a traces file, gunzipped as they stream when it is gzip, and never more than
 * `maxBytes` of them: past that the streams are stopped and the read is a UsageError (exit 2). A
 * gzip bomb (megabytes that inflate to gigabytes) costs at most `maxBytes`, never the machine.
 */
export async function* traceBytes(path: string, maxBytes: number): AsyncGenerator<Buffer> {
  const gzip = await isGzip(path);
  const raw = createReadStream(path);
  const source = gzip ? raw.pipe(createGunzip()) : raw;
  if (gzip) raw.once('error', (error) => source.destroy(error));
  let total = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw tooLarge(path, maxBytes, gzip);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof UsageError || !gzip) throw error;
    throw new UsageError('USAGE_BAD_TRACES', `not a whole gzip file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`, { location: { file: path }, hint: 'compress it again, or give it uncompressed' });
  } finally {
    source.destroy();
    raw.destroy();
  }
}
