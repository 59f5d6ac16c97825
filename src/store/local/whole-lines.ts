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

/**
 * As wholeLines, read from byte `start` (the end of a line already read), each line with the byte
 * offset just past its `\n`, the first `skip` lines left out: a reader following a growing file
 * (the team store's streaming writer) goes on where it stopped instead of reading it all again.
 */
export async function* wholeLinesFrom(path: string, start: number, skip = 0): AsyncGenerator<{ text: string; end: number }> {
  const stream = createReadStream(path, { highWaterMark: 1 << 20, start });
  let carry: Buffer = Buffer.alloc(0);
  // The file offset of `data`'s first byte.
  let base = start;
  let line = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const data = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
      let from = 0;
      for (let nl = data.indexOf(0x0a, from); nl !== -1; nl = data.indexOf(0x0a, from)) {
        if (line >= skip) yield { text: data.toString('utf8', from, nl), end: base + nl + 1 };
        line += 1;
        from = nl + 1;
      }
      carry = data.subarray(from);
      base += from;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
