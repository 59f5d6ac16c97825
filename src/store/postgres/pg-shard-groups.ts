import type { Pool } from 'pg';
import { parseManifest } from '../parse-manifest.js';
import type { RunManifest } from '../types.js';
import { LIVE_COLUMNS, liveManifest, type LiveRow } from './pg-runs.js';
import { connectionError } from './pg-client.js';
import { maskUrl } from '../mask-url.js';

/**
 * Any fixed number: the first key of every shard group's advisory lock (the second is a hash of the
 * group's name), so these locks never meet the schema's migration lock or anyone else's.
 */
const GROUP_LOCK_SPACE = 0x616d6b32;

/** The runs whose manifest's `shard.group` is `group`, newest first (migration 5's index). */
export async function selectShards(pool: Pool, group: string): Promise<RunManifest[]> {
  // With live statuses: a shard whose writer was killed is refused as `abandoned`, not `running`.
  const { rows } = await pool.query<LiveRow>(
    `SELECT ${LIVE_COLUMNS} FROM agentmark_runs WHERE (agentmark_manifest_json(manifest) -> 'shard' ->> 'group') = $1 ORDER BY id DESC`,
    [group],
  );
  return rows.map(liveManifest);
}

/** The run whose manifest's `merged.group` is `group` (one at most: a unique index). */
export async function selectMerged(pool: Pool, group: string): Promise<RunManifest | undefined> {
  const { rows } = await pool.query<{ manifest: string }>(`SELECT manifest FROM agentmark_runs WHERE (agentmark_manifest_json(manifest) -> 'merged' ->> 'group') = $1`, [group]);
  return rows[0] === undefined ? undefined : parseManifest(rows[0].manifest);
}

/**
 * Takes the group's session advisory lock on a connection of its own (outside the pool, whose two
 * connections the merge under the lock needs), held until the release is called: the lock lives as
 * long as that connection, so a process killed while holding it frees it.
 */
export async function lockGroup(url: string, group: string): Promise<() => Promise<void>> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [GROUP_LOCK_SPACE, group]);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw connectionError(error, url, maskUrl(url));
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    // Ending the session releases its advisory locks.
    await client.end().catch(() => undefined);
  };
}
