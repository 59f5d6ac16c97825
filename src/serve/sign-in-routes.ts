import type { IncomingMessage, ServerResponse } from 'node:http';
import { COMMON_HEADERS } from '../view/security.js';
import type { Accounts } from './accounts.js';
import { addressOf } from './authenticate.js';
import { clearedCookie, cookieValue, sessionCookie } from './cookies.js';
import type { Sessions } from './sessions.js';
import { SIGN_IN_CSP, signInPage, type SignInNotice } from './sign-in-page.js';
import type { SignInLimit } from './sign-in-limit.js';
import { sameOrigin } from './team-write-guard.js';

export interface SignInDeps {
  accounts: Accounts;
  sessions: Sessions;
  limit: SignInLimit;
  cookieName: string;
  tls: boolean;
  log: (line: string) => void;
}

/** The most a sign-in form body may be: a token is 64 characters. */
const MAX_FORM_BYTES = 4096;

export function sendSignInPage(res: ServerResponse, status: number, notice: SignInNotice, headers: Record<string, string> = {}): void {
  // same-origin, not the viewer's no-referrer: under no-referrer a browser posts the form with
  // `Origin: null`, and the sign-in could not be told from another site's.
  res.writeHead(status, { ...COMMON_HEADERS, 'referrer-policy': 'same-origin', 'content-type': 'text/html; charset=utf-8', 'content-security-policy': SIGN_IN_CSP, ...headers });
  res.end(signInPage(notice));
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * POST /sign-in: a token from the form becomes a session cookie. It must come from this
 * server's own page (its Origin), so no other site can sign a browser in as someone else.
 */
export async function signIn(req: IncomingMessage, res: ServerResponse, deps: SignInDeps): Promise<void> {
  const address = addressOf(req);
  if (!sameOrigin(req)) {
    res.setHeader('connection', 'close');
    deps.log(`403 POST /sign-in from ${address}: cross-origin sign-in refused`);
    return sendSignInPage(res, 403, 'none');
  }
  const wait = deps.limit.waitFor(address);
  if (wait > 0) {
    res.setHeader('connection', 'close');
    deps.log(`429 POST /sign-in from ${address}: too many failed sign-ins`);
    return sendSignInPage(res, 429, 'limited', { 'retry-after': String(wait) });
  }
  const form = await readForm(req);
  const token = form?.get('token')?.trim() ?? '';
  const account = token === '' ? undefined : await deps.accounts.ofToken(token);
  if (!account) {
    deps.limit.failed(address);
    deps.log(`401 POST /sign-in from ${address}: unknown or revoked token`);
    return sendSignInPage(res, 401, 'wrong');
  }
  const { id } = deps.sessions.open(account.tokenId);
  deps.log(`signed in: ${account.name} (${account.role}) from ${address}`);
  res.writeHead(303, { ...COMMON_HEADERS, location: '/', 'set-cookie': sessionCookie(deps.cookieName, id, deps.tls) });
  res.end();
}

/** POST /sign-out: the session ends here and in the browser. */
export function signOut(req: IncomingMessage, res: ServerResponse, deps: SignInDeps): void {
  if (!sameOrigin(req)) {
    res.writeHead(403, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
    res.end('cross-origin sign-out refused\n');
    return;
  }
  const id = cookieValue(req.headers.cookie, deps.cookieName);
  if (id !== undefined) deps.sessions.close(id);
  sendSignInPage(res, 200, 'signed-out', { 'set-cookie': clearedCookie(deps.cookieName, deps.tls) });
}
