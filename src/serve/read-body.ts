import type { IncomingMessage } from 'node:http';

/** The request's body as UTF-8 text, or not ok when it is larger than `limit` (whatever Content-Length said). */
export async function readBody(req: IncomingMessage, limit: number): Promise<{ ok: true; text: string } | { ok: false }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return { ok: false };
    chunks.push(chunk);
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}
