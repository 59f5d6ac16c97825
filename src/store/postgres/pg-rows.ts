import type { Pool, PoolClient } from 'pg';
import { inTransaction } from './pg-client.js';
import type { RowResult } from '../../experiment/types.js';
import { readBackRows } from './pg-copy-lines.js';
import { batchFrom, batchUpTo, type LineBatch } from '../line-batch.js';
import { keysSlice, type LineKeys } from '../line-keys.js';
import { copyRowsIn } from './pg-copy-binary.js';
import type { WrittenRows } from './written-rows.js';
import { gapError } from '../run-query.js';
import { parseManifest } from '../parse-manifest.js';
import { unknownRun } from './pg-runs.js';
import { RunStoreError } from '../store-error.js';
import type { StoredLine } from '../stored-run.js';
import type { ResultsIntegrity } from '../types.js';

/** Rows a statement carries or a page reads: ~3 MB of 300-byte rows, one round trip. */
export const PAGE = 10_000;

/**
 * Inserts a batch of a run's lines (at places batch.first, batch.first + 1, ...), a page at a
 * time, each page one transaction: under an advisory lock on the run (two pushes of the same run
 * take turns), the rows already stored are skipped and the rest are COPYed straight into
 * agentmark_rows in COPY's binary format, the lines' bytes as they are (pg-copy-binary.ts: nothing
 * escaped, decoded or parsed but each line's key). A line already stored at its place is kept: a
 * retried or concurrent push of the same run stores it once. Returns how many were new.
 * Measured on a loaded 2-core machine: COPY into a temporary table and then INSERT ... SELECT
 * ... ON CONFLICT DO NOTHING wrote every row twice; a 1,000,000-row push took 27× psql \copy. The
 * text format built from decoded strings (escaped, a string a page) took 3.3×.
 */
export async function insertBatch(pool: Pool, runId: string, batch: LineBatch, keys: LineKeys, where: string, written?: WrittenRows): Promise<number> {
  let added = 0;
  const pages: Array<[number, number, string]> = [];
  for (let start = 0; start < batch.count; start += PAGE) {
    const first = batch.first + start;
    const count = Math.min(PAGE, batch.count - start);
    added += await inTransaction(pool, async (client) => {
      await lockRun(client, runId);
      // The transaction's id too: the xmin of the rows it inserts (WrittenRows).
      const { rows } = await client.query<{ n: number | null; run: boolean; xid: string }>(
        'SELECT (SELECT max(seq) + 1 FROM agentmark_rows WHERE run_id = $1) AS n, EXISTS (SELECT 1 FROM agentmark_runs WHERE id = $1) AS run, txid_current()::text AS xid',
        [runId],
      );
      // Removed meanwhile (rows have no foreign key: this check, under the lock, stands for it).
      if (rows[0]?.run !== true) throw new RunStoreError('STORE_RUN_REMOVED', `run ${runId} was removed while its rows were being stored`, { location: { file: where } });
      const stored = rows[0].n ?? 0;
      if (stored < first) throw gapError(runId, first, stored);
      const skip = stored - first;
      if (skip >= count) return 0;
      const page = batchFrom(batchUpTo(batch, start + count), start + skip);
      await copyRowsIn(client, runId, page, keysSlice(keys, start + skip, count - skip));
      pages.push([page.first, page.count, rows[0].xid]);
      return count - skip;
    });
  }
  // Only once every page committed: a page rolled back wrote nothing.
  for (const [first, count, xid] of pages) written?.add(first, count, xid);
  return added;
}

/**
 * Before lines `from` to `from + count` - 1 are added: the run exists (its look-up refreshes its
 * heartbeat: each batch says its writer is alive, in the same round trip), the lines leave no gap
 * (STORE_ROWS_GAP), and a completed run takes none beyond its own (STORE_RUN_ENDED).
 */
export async function checkAppend(pool: Pool, runId: string, from: number, count: number, location: string, where: string): Promise<void> {
  const { rows } = await pool.query<{ manifest: string }>('UPDATE agentmark_runs SET heartbeat_at = now() WHERE id = $1 RETURNING manifest', [runId]);
  if (rows[0] === undefined) throw await unknownRun(pool, runId, location);
  const manifest = parseManifest(rows[0].manifest);
  const stored = await storedCount(pool, runId);
  if (from > stored) throw gapError(runId, from, stored);
  if (manifest.status === 'completed' && from + count > stored) {
    throw new RunStoreError('STORE_RUN_ENDED', `run ${runId} is completed: no rows can be added to it`, { location: { file: where } });
  }
}

/** Holds the run's advisory lock until the transaction ends: whoever adds or removes its rows takes it. */
export async function lockRun(client: PoolClient, runId: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [runId]);
}

/**
 * How many lines the run has: its last place plus one, found in the primary key's index (a
 * count would read every row, each batch of a push again). Lines are stored without gaps
 * (appendRows refuses one), so the two agree; the integrity check counts them all.
 */
export async function storedCount(pool: Pool, runId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number | null }>('SELECT max(seq) + 1 AS n FROM agentmark_rows WHERE run_id = $1', [runId]);
  return rows[0]?.n ?? 0;
}

/** Count and sha256 of the run's lines in finish order, hashed here as the server streams them (flat memory). */
export async function integrityOfRows(pool: Pool, runId: string): Promise<ResultsIntegrity> {
  const { rows, sha256 } = await readBackRows(pool, runId);
  return { rows, sha256 };
}

/** The run's lines in finish order, a page at a time. */
export async function* linesBySeq(pool: Pool, runId: string, from = 0): AsyncGenerator<string> {
  let after = from - 1;
  for (;;) {
    const { rows } = await pool.query<{ seq: number; line: string }>(
      'SELECT seq, line FROM agentmark_rows WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
      [runId, after, PAGE],
    );
    for (const row of rows) yield row.line;
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < PAGE) return;
    after = last.seq;
  }
}

/**
 * The run's rows in dataset order (index, repeat), a page at a time. No index holds that order
 * (migration 20: its upkeep slowed every push), so one cursor sorts the run's keys alone (12 bytes
 * a row, not the lines) and each page of places is then read by the primary key, on the same
 * connection, in one transaction: one snapshot for the whole read.
 */
export async function* linesInOrder(pool: Pool, runId: string, where: string): AsyncGenerator<StoredLine> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // DECLARE takes no parameters: the run id reaches it as a setting made by a parameterised set_config.
    await client.query("SELECT set_config('agentmark.run_id', $1, true)", [runId]);
    await client.query("DECLARE agentmark_in_order NO SCROLL CURSOR FOR SELECT seq FROM agentmark_rows WHERE run_id = current_setting('agentmark.run_id') ORDER BY idx, rep, seq");
    for (;;) {
      const { rows: keys } = await client.query<{ seq: number }>(`FETCH ${PAGE} FROM agentmark_in_order`);
      if (keys.length === 0) break;
      const places = keys.map((key) => key.seq);
      const { rows } = await client.query<{ seq: number; line: string }>('SELECT seq, line FROM agentmark_rows WHERE run_id = $1 AND seq = ANY($2::integer[])', [runId, places]);
      const bySeq = new Map(rows.map((row) => [row.seq, row.line]));
      for (const seq of places) yield { row: parseLine(bySeq.get(seq) as string, where, seq), text: `${bySeq.get(seq) as string}\n` };
      if (keys.length < PAGE) break;
    }
    await client.query('COMMIT');
  } finally {
    // A reader that stopped early leaves the transaction open: ending it closes the cursor.
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}

/** An (index, repeat) stored twice in the run, or undefined. */
export async function duplicateKey(pool: Pool, runId: string): Promise<[number, number] | undefined> {
  const { rows } = await pool.query<{ idx: number; rep: number }>(
    'SELECT idx, rep FROM agentmark_rows WHERE run_id = $1 GROUP BY idx, rep HAVING count(*) > 1 ORDER BY idx, rep LIMIT 1',
    [runId],
  );
  const found = rows[0];
  return found === undefined ? undefined : [found.idx, found.rep];
}

function parseLine(text: string, where: string, seq: number): RowResult {
  try {
    return JSON.parse(text) as RowResult;
  } catch (error) {
    throw new RunStoreError('STORE_CORRUPT_RESULTS', `line ${seq + 1} is not a result row`, { location: { file: where }, cause: error });
  }
}
