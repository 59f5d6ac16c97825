/** What an account may do; each role's rights are fixed here and nowhere else. */
export type Right = 'read' | 'label' | 'push' | 'tokens';

export const ROLES = ['viewer', 'reviewer', 'writer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * viewer reads; reviewer also labels (as itself); writer reads and pushes runs (a CI job's
 * account); admin may do all of it and manages the tokens.
 */
const RIGHTS: Record<Role, ReadonlySet<Right>> = {
  viewer: new Set(['read']),
  reviewer: new Set(['read', 'label']),
  writer: new Set(['read', 'push']),
  admin: new Set(['read', 'label', 'push', 'tokens']),
};

export function isRole(text: string): text is Role {
  return (ROLES as readonly string[]).includes(text);
}

export function can(role: Role, right: Right): boolean {
  return RIGHTS[role].has(right);
}
