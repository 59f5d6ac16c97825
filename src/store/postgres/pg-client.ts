import type { Pool, PoolClient } from 'pg';

/** A pool of connections to one database; `pg` is loaded only when a store URL is in use. */
export async function createPool(url: string): Promise<Pool> {
  const { default: pg } = await import('pg');
  // Two connections: a run's stream of rows and the reads beside it; more buy nothing on one store.
  const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 10_000 });
  // An idle connection the server drops (a restart) must not crash the process: the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/** Runs `work` in one transaction on one connection: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Text as an indexed column holds it: PostgreSQL's text cannot hold NUL, so `\` is written `\\` and
 * NUL `\0` (one-to-one: a lookup encodes its value the same way). Records themselves are stored as
 * their JSON text, where JSON already writes NUL as `\u0000`; these columns are only looked up.
 */
export function columnText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\0/g, '\\0');
}
