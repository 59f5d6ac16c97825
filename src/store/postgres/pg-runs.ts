import type { Pool } from 'pg';
import { UsageError, closestMatch } from '../../errors/index.js';
import { parseManifest } from '../parse-manifest.js';
import type { RunQuery } from '../storage.js';
import type { RunManifest } from '../types.js';
import { ABANDONED_AFTER_MS } from '../heartbeat.js';
import { columnText } from './pg-client.js';

/** The columns a run's row holds beside its manifest's JSON text: what runs are looked up by. */
export function runColumns(manifest: RunManifest): unknown[] {
  const text = (value: string | undefined): string | null => (value === undefined ? null : columnText(value));
  return [
    manifest.id,
    columnText(manifest.prompt.path),
    text(manifest.git?.branch),
    text(manifest.git?.commit),
    manifest.status,
    manifest.startedAt,
    JSON.stringify(manifest),
  ];
}

/**
 * A run still `running` whose writer has not been heard from for ABANDONED_AFTER_MS, in SQL over
 * the database's clock (the constant is ours, not user input: spliced as a number).
 */
const STALE = `(status = 'running' AND heartbeat_at < now() - make_interval(secs => ${ABANDONED_AFTER_MS / 1000}))`;
/** What a reader is given of a run's row: its manifest, and whether its heartbeat went stale. */
export const LIVE_COLUMNS = `manifest, ${STALE} AS abandoned, CASE WHEN status = 'running' THEN to_char(heartbeat_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END AS heartbeat`;

export interface LiveRow {
  manifest: string;
  abandoned: boolean;
  heartbeat: string | null;
}

/** The manifest as a reader sees it: a running run whose writer went silent is `abandoned`, with when it was last heard from. */
export function liveManifest(row: LiveRow): RunManifest {
  const manifest = parseManifest(row.manifest);
  // Only on an abandoned run: a live one reads as the back ends' contract has it, as written.
  if (row.abandoned && row.heartbeat !== null) {
    manifest.status = 'abandoned';
    manifest.heartbeatAt = row.heartbeat;
  }
  return manifest;
}

/** Manifests matching `query`, newest first, as one parameterised SELECT, with live statuses (`abandoned`). */
export async function selectRuns(pool: Pool, query: RunQuery): Promise<RunManifest[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown): void => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (query.idPrefix !== undefined) add("id LIKE ? || '%'", query.idPrefix.replace(/[\\%_]/g, '\\$&'));
  if (query.promptPath !== undefined) add('prompt_path = ?', columnText(query.promptPath));
  if (query.branch !== undefined) add('git_branch = ?', columnText(query.branch));
  if (query.commit !== undefined) add("git_commit LIKE ? || '%'", columnText(query.commit).replace(/[\\%_]/g, '\\$&'));
  if (query.status === 'abandoned') where.push(STALE);
  else if (query.status !== undefined) add('status = ?', query.status);
  if (query.status === 'running') where.push(`NOT ${STALE}`);
  let sql = `SELECT ${LIVE_COLUMNS} FROM agentmark_runs${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC`;
  if (query.limit !== undefined && Number.isFinite(query.limit)) {
    params.push(query.limit);
    sql += ` LIMIT $${params.length}`;
  }
  const { rows } = await pool.query<LiveRow>(sql, params);
  return rows.map(liveManifest);
}

/** The run as a reader sees it (`abandoned` when its heartbeat went stale), or undefined. */
export async function selectLiveRun(pool: Pool, id: string): Promise<RunManifest | undefined> {
  const { rows } = await pool.query<LiveRow>(`SELECT ${LIVE_COLUMNS} FROM agentmark_runs WHERE id = $1`, [id]);
  return rows[0] === undefined ? undefined : liveManifest(rows[0]);
}

/** The stored manifest as written (what an update starts from: never a reader's `abandoned`). */
export async function selectRun(pool: Pool, id: string): Promise<RunManifest | undefined> {
  const { rows } = await pool.query<{ manifest: string }>('SELECT manifest FROM agentmark_runs WHERE id = $1', [id]);
  const found = rows[0];
  return found === undefined ? undefined : parseManifest(found.manifest);
}

/** Stores the manifest of a run already there (its columns follow it). */
export async function updateRunRow(pool: Pool, manifest: RunManifest): Promise<void> {
  await pool.query(
    `UPDATE agentmark_runs SET prompt_path = $2, git_branch = $3, git_commit = $4, status = $5, started_at = $6, manifest = $7 WHERE id = $1`,
    runColumns(manifest),
  );
}

/** USAGE_UNKNOWN_RUN, with the closest id and the newest few as a hint, as the local store says it. */
export async function unknownRun(pool: Pool, id: string, location: string): Promise<UsageError> {
  const { rows } = await pool.query<{ id: string }>('SELECT id FROM agentmark_runs ORDER BY id DESC LIMIT 1000');
  const ids = rows.map((row) => row.id);
  const close = closestMatch(id, ids);
  const hints: string[] = [];
  if (close !== undefined) hints.push(`did you mean "${close}"?`);
  hints.push(ids.length > 0 ? `recent runs: ${ids.slice(0, 5).join(', ')}` : `no runs yet in ${location}`);
  return new UsageError('USAGE_UNKNOWN_RUN', `unknown run "${id}"`, { hint: hints.join('; ') });
}
