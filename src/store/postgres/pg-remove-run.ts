import type { PoolClient } from 'pg';
import { parseManifest } from '../parse-manifest.js';
import { blobHashesOf } from '../run-blobs.js';
import { lockRun } from './pg-rows.js';

/**
 * Deletes run `id` with its rows and label lines, and the blobs no other run's manifest names,
 * inside the caller's transaction. False when there was no such run.
 */
export async function deleteRun(client: PoolClient, id: string): Promise<boolean> {
  // Rows have no foreign key to cascade (migration 10): deleted here, under the lock that adding them takes.
  await lockRun(client, id);
  const { rows } = await client.query<{ manifest: string }>('DELETE FROM agentmark_runs WHERE id = $1 RETURNING manifest', [id]);
  await client.query('DELETE FROM agentmark_rows WHERE run_id = $1', [id]);
  // Their foreign key would cascade; said here so the run's removal does not rest on it.
  await client.query('DELETE FROM agentmark_annotations WHERE run_id = $1', [id]);
  if (rows[0] === undefined) return false;
  // Its blobs that no other run's manifest names (a 64-digit hash in a manifest is that run's file).
  await client.query(
    'DELETE FROM agentmark_blobs b WHERE b.hash = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM agentmark_runs r WHERE strpos(r.manifest, b.hash) > 0)',
    [blobHashesOf(parseManifest(rows[0].manifest))],
  );
  // Its stored view index goes by its foreign key's cascade (migration 30).
  return true;
}
