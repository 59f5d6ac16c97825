import type { Pool } from 'pg';
import type { RowResult } from '../../experiment/types.js';
import { ResultsHash } from '../results-integrity.js';
import { indexAndRepeat } from '../scan-results.js';
import { RunStoreError } from '../store-error.js';
import type { StoredLine } from '../stored-run.js';
import type { ResultsIntegrity } from '../types.js';

/** Rows a statement carries or a page reads: ~3 MB of 300-byte rows, one round trip. */
export const PAGE = 10_000;

/**
 * Inserts lines `from`, `from + 1`, ... of a run, as one statement per page (arrays unnested, so a
 * page is one parameterised statement whatever its size). A line already stored at its place is
 * kept (ON CONFLICT DO NOTHING): a retried or concurrent push of the same run stores it once.
 * Returns how many were new.
 */
export async function insertLines(pool: Pool, runId: string, from: number, lines: readonly string[], where: string): Promise<number> {
  let added = 0;
  for (let start = 0; start < lines.length; start += PAGE) {
    const page = lines.slice(start, start + PAGE);
    const seqs: number[] = [];
    const idxs: number[] = [];
    const reps: number[] = [];
    page.forEach((line, k) => {
      const [index, repeat] = indexAndRepeat(line, where, from + start + k + 1);
      seqs.push(from + start + k);
      idxs.push(index);
      reps.push(repeat);
    });
    const result = await pool.query(
      `INSERT INTO agentmark_rows (run_id, seq, idx, rep, line)
       SELECT $1, s, i, r, l FROM unnest($2::int[], $3::int[], $4::int[], $5::text[]) AS t (s, i, r, l)
       ON CONFLICT (run_id, seq) DO NOTHING`,
      [runId, seqs, idxs, reps, page],
    );
    added += result.rowCount ?? 0;
  }
  return added;
}

export async function storedCount(pool: Pool, runId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM agentmark_rows WHERE run_id = $1', [runId]);
  return rows[0]?.n ?? 0;
}

/** Count and sha256 of the run's lines in finish order, hashed here a page at a time (flat memory). */
export async function integrityOfRows(pool: Pool, runId: string): Promise<ResultsIntegrity> {
  const hash = new ResultsHash();
  for await (const line of linesBySeq(pool, runId)) hash.line(line);
  return hash.value();
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

/** The run's rows in dataset order (index, repeat), a page at a time by key. */
export async function* linesInOrder(pool: Pool, runId: string, where: string): AsyncGenerator<StoredLine> {
  let key: [number, number, number] = [-1, -1, -1];
  for (;;) {
    const { rows } = await pool.query<{ seq: number; idx: number; rep: number; line: string }>(
      `SELECT seq, idx, rep, line FROM agentmark_rows
       WHERE run_id = $1 AND (idx, rep, seq) > ($2, $3, $4) ORDER BY idx, rep, seq LIMIT $5`,
      [runId, ...key, PAGE],
    );
    for (const row of rows) yield { row: parseLine(row.line, where, row.seq), text: `${row.line}\n` };
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < PAGE) return;
    key = [last.idx, last.rep, last.seq];
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
