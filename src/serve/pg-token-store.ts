import type { Pool } from 'pg';
import { isRole } from './roles.js';
import { tokenExists } from './local-token-store.js';
import type { TokenRecord, TokenStore } from './token-store.js';

interface TokenRow {
  id: string;
  name: string;
  role: string;
  hash: string;
  created_at: string;
  revoked_at: string | null;
}

function recordOf(row: TokenRow): TokenRecord {
  // The role column only ever holds what isRole accepted when the token was made.
  return { id: row.id, name: row.name, role: isRole(row.role) ? row.role : 'viewer', hash: row.hash, createdAt: row.created_at, ...(row.revoked_at === null ? {} : { revokedAt: row.revoked_at }) };
}

/** Tokens in the store's database (migration 100), so every `serve` of the team knows them. */
export class PgTokenStore implements TokenStore {
  constructor(private readonly pool: Pool, private readonly release: () => Promise<void>) {}

  async add(record: TokenRecord): Promise<void> {
    try {
      await this.pool.query('INSERT INTO agentmark_tokens (id, name, role, hash, created_at) VALUES ($1, $2, $3, $4, $5)', [record.id, record.name, record.role, record.hash, record.createdAt]);
    } catch (error) {
      // The unique index on active names: two admins making the same name at once keep one.
      if ((error as { code?: string }).code === '23505') throw tokenExists(record.name);
      throw error;
    }
  }

  async list(): Promise<TokenRecord[]> {
    const { rows } = await this.pool.query<TokenRow>('SELECT id, name, role, hash, created_at, revoked_at FROM agentmark_tokens ORDER BY created_at, id');
    return rows.map(recordOf);
  }

  async byId(id: string): Promise<TokenRecord | undefined> {
    const { rows } = await this.pool.query<TokenRow>('SELECT id, name, role, hash, created_at, revoked_at FROM agentmark_tokens WHERE id = $1', [id]);
    return rows[0] === undefined ? undefined : recordOf(rows[0]);
  }

  async revoke(name: string, at: string): Promise<boolean> {
    const result = await this.pool.query('UPDATE agentmark_tokens SET revoked_at = $2 WHERE name = $1 AND revoked_at IS NULL', [name, at]);
    return (result.rowCount ?? 0) > 0;
  }

  close(): Promise<void> {
    return this.release();
  }
}
