import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** sha256 of a file's bytes and its number of non-blank lines, in one streaming pass. */
export async function scanFile(path: string): Promise<{ hash: string; rows: number }> {
  const hash = createHash('sha256');
  let rows = 0;
  let lineHasText = false;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === 0x0a) {
        if (lineHasText) rows++;
        lineHasText = false;
      } else if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) {
        lineHasText = true;
      }
    }
  }
  if (lineHasText) rows++;
  return { hash: hash.digest('hex'), rows };
}

export async function hashFile(path: string): Promise<string> {
  return createHash('sha256').update(await readFile(path)).digest('hex');
}
