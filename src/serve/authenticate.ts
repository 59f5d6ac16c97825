import type { IncomingMessage } from 'node:http';
import type { Account, Accounts } from './accounts.js';
import { cookieValue } from './cookies.js';
import type { Session, Sessions } from './sessions.js';
import type { SignInLimit } from './sign-in-limit.js';

/** Who asks: by a Bearer token (the CLI, CI) or by a session cookie (a browser that signed in). */
export type Caller =
  | { kind: 'bearer'; account: Account }
  | { kind: 'session'; account: Account; session: Session; sessionId: string }
  | { kind: 'refused'; status: 401 | 429; reason: string; retryAfter?: number };

export interface AuthDeps {
  accounts: Accounts;
  sessions: Sessions;
  limit: SignInLimit;
  cookieName: string;
}

/** The client's address, as the rate limit and the log name it. */
export function addressOf(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

/**
 * The caller of a request. A Bearer token is a sign-in of its own: a wrong one counts against
 * the address like a wrong token in the form, and an address over the limit is refused even
 * with a right one. A session cookie that is unknown, expired or whose token was revoked is
 * simply no sign-in.
 */
export async function authenticate(req: IncomingMessage, deps: AuthDeps): Promise<Caller> {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    const address = addressOf(req);
    const wait = deps.limit.waitFor(address);
    if (wait > 0) return { kind: 'refused', status: 429, reason: 'too many failed sign-ins from this address', retryAfter: wait };
    const account = match?.[1] === undefined ? undefined : await deps.accounts.ofToken(match[1]);
    if (!account) {
      deps.limit.failed(address);
      return { kind: 'refused', status: 401, reason: match ? 'unknown or revoked token' : 'an Authorization header that is not "Bearer <token>"' };
    }
    return { kind: 'bearer', account };
  }
  const sessionId = cookieValue(req.headers.cookie, deps.cookieName);
  if (sessionId !== undefined) {
    const session = deps.sessions.get(sessionId);
    const account = session ? await deps.accounts.ofTokenId(session.tokenId) : undefined;
    if (session && account) return { kind: 'session', account, session, sessionId };
    return { kind: 'refused', status: 401, reason: 'a session that ended (signed out, expired, restarted, or its token revoked)' };
  }
  return { kind: 'refused', status: 401, reason: 'no token' };
}
