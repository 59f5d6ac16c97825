import { createReadStream } from 'node:fs';

/**
 * The complete lines of a file (without their `\n`) from line `from` on (0-based), read in 1 MB
 * chunks: a torn last line (no newline after it) is left out, as every reader of results.jsonl
 * does. None when the file does not exist.
 */
export async function* wholeLines(path: string, from = 0): AsyncGenerator<string> {
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  let carry: Buffer = Buffer.alloc(0);
  let line = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const data = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
      let start = 0;
      for (let nl = data.indexOf(0x0a, start); nl !== -1; nl = data.indexOf(0x0a, start)) {
        if (line >= from) yield data.toString('utf8', start, nl);
        line += 1;
        start = nl + 1;
      }
      carry = data.subarray(start);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
