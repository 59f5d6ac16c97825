import { UsageError } from '../errors/index.js';
import { isRole, ROLES, type Role } from './roles.js';
import { hashToken, newToken } from './token-secret.js';
import type { TokenRecord, TokenStore } from './token-store.js';

/** A token's name is who labels with it (a person, or a job like `ci-main`). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export function checkTokenName(name: string): void {
  if (!NAME.test(name)) {
    throw new UsageError('USAGE_BAD_TOKEN_NAME', `"${name}" is not a token name`, { hint: 'up to 64 letters, digits, ".", "_", "@" or "-", starting with a letter or digit (e.g. ci-main, ada@example.com)' });
  }
}

export function checkRole(role: string): Role {
  if (!isRole(role)) throw new UsageError('USAGE_BAD_ROLE', `"${role}" is not a role`, { hint: `use one of ${ROLES.join(', ')}` });
  return role;
}

/** Makes a token and stores its hash: the token itself is returned once and kept nowhere. */
export async function createToken(store: TokenStore, name: string, role: Role, now: Date): Promise<{ token: string; record: TokenRecord }> {
  checkTokenName(name);
  const { id, token } = newToken();
  const record: TokenRecord = { id, name, role, hash: await hashToken(token), createdAt: now.toISOString() };
  await store.add(record);
  return { token, record };
}
