import type { Pool } from 'pg';
import type { AnswerStore } from '../answer-store.js';
import { maskUrl } from '../mask-url.js';
import { connectionError, createPool } from './pg-client.js';
import { checkSchema } from './schema.js';

/** The shared response cache in `agentmark_cache` (migration 101). */
export class PgAnswerStore implements AnswerStore {
  private constructor(private readonly pool: Pool) {}

  static async connect(url: string): Promise<PgAnswerStore> {
    const pool = await createPool(url);
    try {
      await checkSchema(pool, maskUrl(url));
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw connectionError(error, url, maskUrl(url));
    }
    return new PgAnswerStore(pool);
  }

  async segment(digit: string): Promise<Map<string, string>> {
    const { rows } = await this.pool.query<{ key: string; entry: string }>('SELECT key, entry FROM agentmark_cache WHERE segment = $1', [digit]);
    return new Map(rows.map((row) => [row.key, row.entry]));
  }

  async get(key: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ entry: string }>('SELECT entry FROM agentmark_cache WHERE key = $1', [key]);
    return rows[0]?.entry;
  }

  async put(key: string, entry: string): Promise<void> {
    await this.pool.query('INSERT INTO agentmark_cache (key, segment, entry) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING', [key, key.slice(0, 1), entry]);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
