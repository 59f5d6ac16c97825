import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { MAX_WRITE_BYTES, SESSION_TOKEN_HEADER } from './api-types.js';
import { isLoopback, parseHostHeader } from './security.js';

/** A fresh token per server start: only pages this server served hold it. */
export function newSessionToken(): string {
  return randomBytes(24).toString('base64url');
}

export type WriteRefusal = { status: 403 | 405 | 413 | 415; error: string };

/**
 * Whether a request may write, before its body is read. A write needs all of:
 * - POST (a link, an image or a form GET cannot write);
 * - a loopback Host on the server's port, even when the viewer listens on every interface
 *   (labels are given on this machine);
 * - an Origin that is this same loopback address: another site's page, or a page of another
 *   server on this machine, sends its own;
 * - the session token the shell page holds, in a header (a cross-origin form cannot set one);
 * - a JSON body no larger than MAX_WRITE_BYTES.
 */
export function writeRefusal(req: IncomingMessage, token: string | undefined, port: number): WriteRefusal | undefined {
  if (token === undefined) return { status: 403, error: 'this viewer is read-only (started with --read-only)' };
  if (req.method !== 'POST') return { status: 405, error: 'writes are POST only' };
  const host = parseHostHeader(req.headers.host);
  if (!host || !isLoopback(host[0]) || host[1] !== String(port)) return { status: 403, error: 'writes are accepted on a loopback address only' };
  if (!originMatches(req.headers.origin, req.headers.host as string)) return { status: 403, error: 'cross-origin write refused' };
  const given = req.headers[SESSION_TOKEN_HEADER];
  if (typeof given !== 'string' || !sameText(given, token)) return { status: 403, error: 'missing or wrong session token (reload the page)' };
  if (!/^application\/json(\s*;|$)/i.test(req.headers['content-type'] ?? '')) return { status: 415, error: 'writes take application/json' };
  const length = Number(req.headers['content-length'] ?? 0);
  if (!(length <= MAX_WRITE_BYTES)) return { status: 413, error: `a write is at most ${MAX_WRITE_BYTES} bytes` };
  return undefined;
}

function originMatches(origin: string | undefined, host: string): boolean {
  if (origin === undefined) return false;
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && url.host.toLowerCase() === host.trim().toLowerCase() && url.origin === origin;
  } catch {
    return false;
  }
}

/** Compares two secrets in constant time (no early exit a timing attack could measure). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The request's body as JSON; undefined when it is larger than `limit` (whatever Content-Length said) or not JSON. */
export async function readJsonBody(req: IncomingMessage, limit = MAX_WRITE_BYTES): Promise<{ ok: true; value: unknown } | { ok: false; status: 400 | 413 }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return { ok: false, status: 413 };
    chunks.push(chunk);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { ok: false, status: 400 };
  }
}
