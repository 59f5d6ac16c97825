import type { Role } from './roles.js';

/** A token as stored: never the token, only its scrypt hash. */
export interface TokenRecord {
  id: string;
  /** Unique among the tokens not revoked, e.g. `ci-main` or a person's name: labels carry it. */
  name: string;
  role: Role;
  hash: string;
  createdAt: string;
  revokedAt?: string;
}

/** Where a team's tokens live: PostgreSQL with a database store, `.agentmark/tokens.json` without. */
export interface TokenStore {
  /** Adds a token; a name already held by a token not revoked is a UsageError (USAGE_TOKEN_EXISTS). */
  add(record: TokenRecord): Promise<void>;
  /** Every token, revoked ones too, oldest first. */
  list(): Promise<TokenRecord[]>;
  byId(id: string): Promise<TokenRecord | undefined>;
  /** Revokes the token of that name (not yet revoked); false when there is none. */
  revoke(name: string, at: string): Promise<boolean>;
  close(): Promise<void>;
}
