import type { PoolClient } from 'pg';
import type { LineRange } from './given-lines.js';
import type { WrittenRows } from './written-rows.js';

/** What a check of stored ranges found, and how much of it the server hashed. */
export interface RangeCheck {
  match: boolean;
  /** Ranges whose rows the server hashed (the others were this process's own rows, known by their xmin). */
  hashed: number;
}

/**
 * Whether the run's stored rows are exactly the lines of these ranges (places 0 to `rows` - 1, in
 * order): each range's count and sha256 computed by the server from the rows at those places, one
 * statement a range on the caller's connection (its snapshot), and no row stored at any other
 * place. Only the digests cross the wire: a read-back of a 1,000,000-row run sent ~500 MB to be
 * parsed and hashed here. Parallel plans are off so string_agg takes the rows in the subquery's
 * order (by place, along the primary key).
 *
 * Rows this process wrote (`written`) need no hashing when every one of them is still there as
 * inserted: the count of the run's rows whose xmin is one of the writing transactions equals what
 * was written (one scan, no hashing of ~500 MB). Then only ranges holding other rows (noted lines,
 * stored by another push) are hashed; else every range is, and a range given unhashed (GivenLines)
 * is no match.
 */
export async function storedRangesMatch(client: PoolClient, runId: string, ranges: readonly LineRange[], rows: number, written?: WrittenRows): Promise<RangeCheck> {
  await client.query("SELECT set_config('max_parallel_workers_per_gather', '0', true), set_config('enable_sort', 'off', true)");
  const outside = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM agentmark_rows WHERE run_id = $1 AND (seq < 0 OR seq >= $2)', [runId, rows]);
  if (outside.rows[0]?.n !== 0) return { match: false, hashed: 0 };
  const trusted = written !== undefined && written.count > 0 && (await ownRowsIntact(client, runId, written));
  let hashed = 0;
  for (const range of ranges) {
    if (trusted && written.covers(range.first, range.first + range.rows)) continue;
    // Lines given unhashed (this process's own rows, found changed): the caller reads the rows back.
    if (range.sha256 === undefined) return { match: false, hashed };
    hashed += 1;
    const { rows: found } = await client.query<{ n: number; sha256: string | null }>(
      `SELECT count(*)::int AS n, encode(sha256(convert_to(string_agg(line, E'\\n') || E'\\n', 'UTF8')), 'hex') AS sha256
       FROM (SELECT line FROM agentmark_rows WHERE run_id = $1 AND seq >= $2 AND seq < $3 ORDER BY seq) AS r`,
      [runId, range.first, range.first + range.rows],
    );
    if (found[0]?.n !== range.rows || found[0]?.sha256 !== range.sha256) return { match: false, hashed };
  }
  return { match: true, hashed };
}

/** Whether every row this process wrote is still there as inserted (by its xmin: see WrittenRows). */
async function ownRowsIntact(client: PoolClient, runId: string, written: WrittenRows): Promise<boolean> {
  // A parameter array of 9 or more becomes a hashed set (PostgreSQL 14+), not a list tried per row.
  const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM agentmark_rows WHERE run_id = $1 AND xmin = ANY($2::xid[])', [runId, written.xids()]);
  return rows[0]?.n === written.count;
}
