import type { Role } from './roles.js';
import { tokenDigest, tokenId, tokenMatches } from './token-secret.js';
import type { TokenStore } from './token-store.js';

/** Who a request is: the token's name and role. */
export interface Account {
  tokenId: string;
  name: string;
  role: Role;
}

/**
 * Tokens to accounts. scrypt is slow on purpose, so a token checked once is remembered by its
 * sha256 for the life of the server; the stored record is still read on every request, so a
 * revoked token stops working at once.
 */
export class Accounts {
  readonly #checked = new Map<string, string>();

  constructor(readonly store: TokenStore) {}

  /** The account of a token given by a client, or undefined for a malformed, unknown or revoked one. */
  async ofToken(token: string): Promise<Account | undefined> {
    const id = tokenId(token);
    if (id === undefined) return undefined;
    const record = await this.store.byId(id);
    if (!record || record.revokedAt !== undefined) return undefined;
    const digest = tokenDigest(token);
    if (this.#checked.get(id) !== digest) {
      if (!(await tokenMatches(token, record.hash))) return undefined;
      this.#checked.set(id, digest);
    }
    return { tokenId: id, name: record.name, role: record.role };
  }

  /** The account of a session's token while it is not revoked. */
  async ofTokenId(id: string): Promise<Account | undefined> {
    const record = await this.store.byId(id);
    return record && record.revokedAt === undefined ? { tokenId: id, name: record.name, role: record.role } : undefined;
  }
}
