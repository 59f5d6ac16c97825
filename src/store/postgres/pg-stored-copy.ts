import type { Pool } from 'pg';
import { duplicateRowError } from '../results-integrity.js';
import { batchOfLines } from '../line-batch.js';
import { lineKeys } from '../line-keys.js';
import { RunStoreError } from '../store-error.js';
import type { ResultsIntegrity, RunManifest } from '../types.js';
import { GivenLines, RANGE_ROWS } from './given-lines.js';
import { inTransaction } from './pg-client.js';
import { storedRangesMatch } from './pg-range-check.js';
import { copyRowsIn } from './pg-copy-binary.js';
import { lockRun, PAGE } from './pg-rows.js';
import { storeViewColumns } from './pg-view-index.js';

/**
 * Whether a run's stored rows are exactly `lines` (a source run's, `runs push` finding the run
 * already completed there), checked where they are: the lines are hashed here by ranges of
 * places, as a push gives them (GivenLines), and the database computes the same digests of its
 * rows (pg-range-check.ts), so only digests cross the wire, never the rows. False too when the
 * lines themselves do not match `integrity` (then the source is what is damaged: the caller checks it).
 */
export async function storedLinesMatch(pool: Pool, runId: string, lines: AsyncIterable<string>, integrity: ResultsIntegrity): Promise<boolean> {
  const given = new GivenLines();
  let batch: string[] = [];
  for await (const line of lines) {
    batch.push(line);
    if (batch.length < RANGE_ROWS) continue;
    if (!given.add(batch)) return false;
    batch = [];
  }
  if (batch.length > 0 && !given.add(batch)) return false;
  const record = given.value();
  if (record.rows !== integrity.rows || record.sha256 !== integrity.sha256) return false;
  return inTransaction(pool, async (client) => (await storedRangesMatch(client, runId, given.ranges(), record.rows)).match);
}

/**
 * Replaces every stored row of a run by `lines`, in one transaction under the run's lock: its rows
 * deleted and the lines COPYed at their places a page at a time, then checked in the database
 * against `integrity` (range digests, as at a completion) before the commit, so a reader sees the
 * old rows or the new ones, never a run with some. Its manifest, labels and blobs stay as they
 * are; its stored view index goes by the rows' trigger (migration 30) and `viewColumnsJson`, when
 * given, is stored in its place before the commit.
 * Lines that do not match `integrity` are STORE_RESULTS_MISMATCH and nothing changes.
 */
export async function replaceRows(pool: Pool, runId: string, lines: AsyncIterable<string>, integrity: ResultsIntegrity, where: string, viewColumnsJson?: string): Promise<void> {
  await inTransaction(pool, async (client) => {
    await lockRun(client, runId);
    const { rows: found } = await client.query<{ manifest: string }>('SELECT manifest FROM agentmark_runs WHERE id = $1 FOR UPDATE', [runId]);
    const manifest = found[0] === undefined ? undefined : (JSON.parse(found[0].manifest) as RunManifest);
    if (manifest === undefined) throw new RunStoreError('STORE_RUN_REMOVED', `run ${runId} was removed while its rows were being replaced`, { location: { file: where } });
    await client.query('DELETE FROM agentmark_rows WHERE run_id = $1', [runId]);
    const given = new GivenLines();
    let page: string[] = [];
    const load = async (): Promise<void> => {
      const batch = batchOfLines(page, given.next, where);
      const keys = lineKeys(batch);
      given.addBatch(batch, keys);
      page = [];
      await copyRowsIn(client, runId, batch, keys);
    };
    for await (const line of lines) {
      page.push(line);
      if (page.length >= PAGE) await load();
    }
    if (page.length > 0) await load();
    const record = given.value();
    if (record.rows !== integrity.rows || record.sha256 !== integrity.sha256 || !(await storedRangesMatch(client, runId, given.ranges(), record.rows)).match) {
      throw new RunStoreError('STORE_RESULTS_MISMATCH', `run ${runId}: the lines sent to replace its stored copy do not match its integrity record (${integrity.rows} rows); the stored copy is left as it was`, {
        location: { file: where },
      });
    }
    if (given.duplicate) {
      const { rows: twice } = await client.query<{ idx: number; rep: number }>('SELECT idx, rep FROM agentmark_rows WHERE run_id = $1 GROUP BY idx, rep HAVING count(*) > 1 ORDER BY idx, rep LIMIT 1', [runId]);
      if (twice[0] !== undefined) throw duplicateRowError(where, manifest, twice[0].idx, twice[0].rep);
    }
    // Put back in the same commit as the rows (the DELETE above removed it): a server following the
    // store sees the repaired run with its index, and reads it from there instead of copying it.
    if (viewColumnsJson !== undefined) await storeViewColumns(client, runId, viewColumnsJson, integrity);
  });
}
