import type { Pool, PoolClient } from 'pg';
import type { RowResult } from '../../experiment/types.js';
import { ResultsHash } from '../results-integrity.js';
import { appendRow, emptyColumns } from '../row-columns.js';
import type { RowIndex } from '../row-index-types.js';
import type { ResultsIntegrity } from '../types.js';
import { linesBySeq } from './pg-rows.js';

/**
 * A completed run's view index in the database (migration 30): the viewer's rows table as JSON,
 * for the rows whose count and sha256 it names. A trigger removes it when any of the run's rows
 * is edited or deleted, so finding it for the run's integrity record means the rows are still
 * the ones `complete` read back and checked.
 */
export async function storeViewColumns(pool: Pool | PoolClient, runId: string, columnsJson: string, integrity: ResultsIntegrity): Promise<void> {
  // Cast through json: the server refuses text that is not JSON (kept as written, not re-encoded).
  await pool.query(
    `INSERT INTO agentmark_view_index (run_id, rows, sha256, columns) VALUES ($1, $2, $3, $4::json::text)
     ON CONFLICT (run_id) DO UPDATE SET rows = EXCLUDED.rows, sha256 = EXCLUDED.sha256, columns = EXCLUDED.columns`,
    [runId, integrity.rows, integrity.sha256, columnsJson],
  );
}

/** The stored index of the run as JSON text, when it describes these rows; else undefined. */
export async function storedViewColumns(pool: Pool, runId: string, integrity: ResultsIntegrity): Promise<string | undefined> {
  const { rows } = await pool.query<{ columns: string }>('SELECT columns FROM agentmark_view_index WHERE run_id = $1 AND rows = $2 AND sha256 = $3', [runId, integrity.rows, integrity.sha256]);
  return rows[0]?.columns;
}

/**
 * The lines at these places in finish order (`seq`), in the order asked; undefined when the run's
 * index for `integrity` is gone (a row was edited since), checked in the same statement as the
 * rows are read, so no edited row is ever handed out as the checked run's.
 */
export async function linesAtPlaces(pool: Pool, runId: string, places: readonly number[], integrity: ResultsIntegrity): Promise<string[] | undefined> {
  const { rows } = await pool.query<{ seq: number | null; line: string | null }>(
    `SELECT r.seq, r.line FROM (SELECT 1 FROM agentmark_view_index WHERE run_id = $1 AND rows = $3 AND sha256 = $4) AS i
     LEFT JOIN agentmark_rows AS r ON r.run_id = $1 AND r.seq = ANY($2::integer[])`,
    [runId, [...places], integrity.rows, integrity.sha256],
  );
  if (rows.length === 0) return undefined;
  const bySeq = new Map<number, string>();
  for (const row of rows) if (row.seq !== null && row.line !== null) bySeq.set(row.seq, row.line);
  const lines: string[] = [];
  for (const place of places) {
    const line = bySeq.get(place);
    if (line === undefined) return undefined;
    lines.push(line);
  }
  return lines;
}

/**
 * The view index built from the run's rows in finish order, as the local view index is, for a
 * run the store keeps no index of; undefined unless the rows match the integrity record.
 */
export async function buildViewColumns(pool: Pool, id: string, integrity: ResultsIntegrity): Promise<RowIndex | undefined> {
  const hash = new ResultsHash();
  let columns: RowIndex | undefined;
  for await (const line of linesBySeq(pool, id)) {
    hash.line(line);
    const row = JSON.parse(line) as RowResult;
    const names = Object.keys(row.evals ?? {});
    if (columns === undefined || (columns.evalNames.length === 0 && names.length > 0)) columns = rebuild(columns, names);
    appendRow(columns, row);
  }
  const found = hash.value();
  if (found.rows !== integrity.rows || found.sha256 !== integrity.sha256) return undefined;
  return columns ?? emptyColumns([]);
}

/** Columns for the given evals, keeping the rows already added (which had no evals). */
function rebuild(previous: RowIndex | undefined, names: string[]): RowIndex {
  const columns = emptyColumns(names);
  if (previous === undefined) return columns;
  // Rows before the first scored one (errored before scoring) keep their place with no verdicts.
  return { ...previous, evalNames: columns.evalNames, scores: names.map(() => previous.index.map(() => null)), labels: names.map(() => []), verdicts: '-'.repeat(previous.index.length * names.length) };
}

/**
 * The index kept for the run's rows (pushed with it, or stored by `serve`); else built from the
 * rows in finish order as the local view index is, and trusted only when they match the record.
 */
export async function viewColumnsOf(pool: Pool, id: string, integrity: ResultsIntegrity): Promise<RowIndex | undefined> {
  const kept = await storedViewColumns(pool, id, integrity);
  if (kept !== undefined) return JSON.parse(kept) as RowIndex;
  return buildViewColumns(pool, id, integrity);
}
