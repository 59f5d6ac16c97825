import type { IncomingMessage } from 'node:http';
import { MAX_WRITE_BYTES, SESSION_TOKEN_HEADER } from '../view/api-types.js';
import { sameText } from '../view/write-guard.js';

/**
 * The origin a browser's write comes from must be this server as the browser reached it (the
 * Host it sent, already checked against the allowed names): another site's page sends its own.
 * The scheme is not compared, since behind a TLS proxy the browser says https and we see http.
 */
export function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  const host = req.headers.host;
  if (origin === undefined || host === undefined) return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin && url.host.toLowerCase() === host.trim().toLowerCase();
  } catch {
    return false;
  }
}

/**
 * The viewer's write checks for a team: a browser's write needs its own origin and the write
 * token of its session's page (a cross-site form can set neither); a Bearer client sends no
 * cookie a page could borrow, so it needs neither. Both send a small JSON body.
 */
export function teamWriteRefusal(req: IncomingMessage, csrf: string | undefined, options: { anyBody?: boolean } = {}): { status: 403 | 413 | 415; error: string } | undefined {
  if (csrf !== undefined) {
    if (!sameOrigin(req)) return { status: 403, error: 'cross-origin write refused' };
    const given = req.headers[SESSION_TOKEN_HEADER];
    if (typeof given !== 'string' || !sameText(given, csrf)) return { status: 403, error: 'missing or wrong session token (reload the page)' };
  }
  // The push and token routes read their own bodies, with their own limits.
  if (options.anyBody === true) return undefined;
  if (!/^application\/json(\s*;|$)/i.test(req.headers['content-type'] ?? '')) return { status: 415, error: 'writes take application/json' };
  const length = Number(req.headers['content-length'] ?? 0);
  if (!(length <= MAX_WRITE_BYTES)) return { status: 413, error: `a write is at most ${MAX_WRITE_BYTES} bytes` };
  return undefined;
}
