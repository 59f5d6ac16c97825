import { createWriteStream } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

/**
 * Writes a response's body to `path` as it arrives (a million answers are hundreds of MB), through
 * a temporary file renamed at the end: the file is whole or absent.
 */
export async function saveBody(response: Response, path: string): Promise<void> {
  const partial = `${path}.download`;
  if (response.body === null) await writeFile(partial, '');
  else await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), createWriteStream(partial));
  await rename(partial, path);
}
