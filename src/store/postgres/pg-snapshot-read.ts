import type { Pool, PoolClient } from 'pg';
import type { RunManifest } from '../types.js';
import { PAGE } from './pg-rows.js';
import { LIVE_COLUMNS, liveManifest, type LiveRow } from './pg-runs.js';

/**
 * A run's manifest, change number and lines read in one REPEATABLE READ transaction: every page
 * of lines comes from the snapshot its manifest was read in, so a repair (replaceRows, one
 * transaction) committing while the lines are read is not seen half-way: the lines are the old
 * ones or the new ones, and the change number says which. No lock is taken: a writer is not held up.
 */
export async function readRunSnapshot<T>(
  pool: Pool,
  id: string,
  use: (run: { manifest: RunManifest; change: number }, lines: AsyncIterable<string>) => Promise<T>,
): Promise<T | undefined> {
  const client = await pool.connect();
  let failed: Error | undefined;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<LiveRow & { change: string }>(`SELECT ${LIVE_COLUMNS}, change_seq::text AS change FROM agentmark_runs WHERE id = $1`, [id]);
    const found = rows[0];
    if (found === undefined) return undefined;
    return await use({ manifest: liveManifest(found), change: Number(found.change) }, pages(client, id));
  } catch (error) {
    failed = error as Error;
    throw error;
  } finally {
    await client.query('ROLLBACK').catch((error: Error) => (failed ??= error));
    // A connection that failed is not given back to the pool to be used again.
    client.release(failed);
  }
}

async function* pages(client: PoolClient, id: string): AsyncGenerator<string> {
  let after = -1;
  for (;;) {
    const { rows } = await client.query<{ seq: number; line: string }>('SELECT seq, line FROM agentmark_rows WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3', [id, after, PAGE]);
    for (const row of rows) yield row.line;
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < PAGE) return;
    after = last.seq;
  }
}
