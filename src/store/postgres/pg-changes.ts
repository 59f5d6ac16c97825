import type { Pool } from 'pg';
import type { ChangeCursor, StoreChanges } from '../storage.js';
import { LIVE_COLUMNS, liveManifest, type LiveRow } from './pg-runs.js';

interface ChangeRow extends LiveRow {
  /** bigint, given as text by node-postgres. */
  change: string;
  rows: number | null;
  sha256: string | null;
  deleted: string | null;
  open: string | null;
}

/**
 * What changed after `after`, in one statement (one snapshot): the runs whose change number is
 * above the cursor's or whose last change was made by a transaction open at the last look (it took
 * its number then, and may have committed after higher ones were read: migration 50), the runs
 * deleted the same way, and the transactions open now (`pg_snapshot_xip`), which the next call
 * asks about. A transaction that starts after this snapshot takes numbers above every one seen
 * here, so nothing committed is missed; a run changed by a transaction still open is given again.
 * Undefined: every run there is (and no deletion: there is nothing to drop yet).
 */
export async function runsChangedAfter(pool: Pool, after: ChangeCursor | undefined): Promise<StoreChanges> {
  const seq = after?.seq ?? 0;
  const open = [...(after?.open ?? [])];
  // LIVE_COLUMNS: a running run whose writer went silent reads `abandoned` here as in listRuns.
  const { rows } = await pool.query<ChangeRow>(
    `SELECT ${LIVE_COLUMNS}, r.change_seq AS change, i.rows, i.sha256, NULL::text AS deleted, NULL::text AS open
       FROM agentmark_runs AS r LEFT JOIN agentmark_view_index AS i ON i.run_id = r.id
       WHERE r.change_seq > $1 OR r.change_xid = ANY($2::bigint[])
     UNION ALL
     SELECT NULL, NULL, NULL, d.change_seq, NULL, NULL, d.run_id, NULL FROM agentmark_deleted_runs AS d
       WHERE $3 AND (d.change_seq > $1 OR d.change_xid = ANY($2::bigint[]))
     UNION ALL
     SELECT NULL, NULL, NULL, NULL::bigint, NULL, NULL, NULL, x::text FROM pg_snapshot_xip(pg_current_snapshot()) AS x
     ORDER BY change`,
    [seq, open, after !== undefined],
  );
  const changes: StoreChanges = { runs: [], deleted: [], next: { seq, open: [] } };
  const stillOpen: string[] = [];
  for (const row of rows) {
    if (row.open !== null) {
      stillOpen.push(row.open);
      continue;
    }
    const change = Number(row.change);
    changes.next.seq = Math.max(changes.next.seq, change);
    if (row.deleted !== null) changes.deleted.push(row.deleted);
    else changes.runs.push({ manifest: liveManifest(row), change, ...(row.rows === null || row.sha256 === null ? {} : { viewIndex: { rows: row.rows, sha256: row.sha256 } }) });
  }
  changes.next = { seq: changes.next.seq, open: stillOpen };
  return changes;
}
