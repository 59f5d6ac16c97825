import { randomBytes } from 'node:crypto';

/** A browser signed in: which token it signed in with, and the write token its page holds. */
export interface Session {
  tokenId: string;
  /** Sent back by the page in a header on every write (the viewer's CSRF check). */
  csrf: string;
  expiresAt: number;
}

/** How long a browser stays signed in without using the server. @default 12 hours */
const IDLE_MS = 12 * 60 * 60 * 1000;

/**
 * Sessions of this server, in memory: a restart signs everyone out, which is the safe side. A
 * session is only a pointer to its token, so revoking the token ends its sessions at once.
 */
export class Sessions {
  readonly #byId = new Map<string, Session>();

  constructor(private readonly now: () => number = Date.now) {}

  open(tokenId: string): { id: string; session: Session } {
    const id = randomBytes(32).toString('base64url');
    const session = { tokenId, csrf: randomBytes(24).toString('base64url'), expiresAt: this.now() + IDLE_MS };
    this.#byId.set(id, session);
    return { id, session };
  }

  get(id: string): Session | undefined {
    const session = this.#byId.get(id);
    if (!session) return undefined;
    if (session.expiresAt <= this.now()) {
      this.#byId.delete(id);
      return undefined;
    }
    session.expiresAt = this.now() + IDLE_MS;
    return session;
  }

  close(id: string): void {
    this.#byId.delete(id);
  }
}
