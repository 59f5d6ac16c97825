/**
 * The database schema, as numbered migrations applied in order and never edited once released.
 * Numbers 1–99 are the run store's; 100 and up belong to the serve side (tokens, the shared
 * response cache, shards in the store). A database records every number applied in
 * `agentmark_schema`; a CLI that finds a number it does not know is older than the database.
 */
import { SERVE_MIGRATIONS } from './serve-migrations.js';
import { SERVE_READ_MIGRATIONS } from './serve-read-migrations.js';
import { CHANGE_MIGRATIONS } from './change-migrations.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'runs, rows, blobs, annotations',
    sql: `
CREATE TABLE agentmark_runs (
  id text PRIMARY KEY,
  prompt_path text NOT NULL,
  git_branch text,
  git_commit text,
  status text NOT NULL,
  started_at text NOT NULL,
  manifest text NOT NULL
);
CREATE INDEX agentmark_runs_by_prompt ON agentmark_runs (prompt_path, git_branch, status, id DESC);
CREATE INDEX agentmark_runs_by_commit ON agentmark_runs (git_commit text_pattern_ops);
CREATE TABLE agentmark_rows (
  run_id text NOT NULL REFERENCES agentmark_runs (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  idx integer NOT NULL,
  rep integer NOT NULL,
  line text NOT NULL,
  PRIMARY KEY (run_id, seq)
);
CREATE INDEX agentmark_rows_in_order ON agentmark_rows (run_id, idx, rep, seq);
CREATE TABLE agentmark_blobs (
  hash text PRIMARY KEY,
  bytes bytea NOT NULL
);
CREATE TABLE agentmark_annotations (
  id bigserial PRIMARY KEY,
  run_id text NOT NULL REFERENCES agentmark_runs (id) ON DELETE CASCADE,
  line text NOT NULL
);
CREATE INDEX agentmark_annotations_by_run ON agentmark_annotations (run_id, id);
`,
  },
  // 5, not 2: other store migrations were being written beside this one (issue 37); numbers need not be consecutive.
  {
    version: 5,
    name: 'shard groups',
    // Looked up through the manifest's JSON. PostgreSQL's json operators refuse a `\u0000` that any
    // field may hold (a prompt path with a NUL), so agentmark_manifest_json reads the text with each
    // such escape made `\u0001` first (an escaped backslash `\\` set aside as a raw U+0001, which JSON
    // text never holds raw); a group's name never holds either. The unique index is the database's
    // guard that a group has one merged run, however many processes merge it at once.
    sql: `
CREATE FUNCTION agentmark_manifest_json(manifest text) RETURNS json LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS
$$ SELECT replace(replace(replace(manifest, '\\\\', chr(1)), '\\u0000', '\\u0001'), chr(1), '\\\\')::json $$;
CREATE INDEX agentmark_runs_by_shard_group ON agentmark_runs ((agentmark_manifest_json(manifest) -> 'shard' ->> 'group'));
CREATE UNIQUE INDEX agentmark_runs_merged_group ON agentmark_runs ((agentmark_manifest_json(manifest) -> 'merged' ->> 'group'));
`,
  },
  // 10, not 2: other store migrations were being written beside this one (issue 37).
  {
    version: 10,
    name: 'rows load without a per-row foreign-key check',
    // The foreign key ran a lookup of the run for every row COPYed in: half the time of a
    // 1,000,000-row push. Rows are only ever added under the run's advisory lock after checking
    // the run is there, and removeRun deletes them under the same lock (pg-rows.ts, pg-storage.ts).
    sql: 'ALTER TABLE agentmark_rows DROP CONSTRAINT agentmark_rows_run_id_fkey;',
  },
  // 20: the push's range of numbers (issue 37), apart from the others being written beside it.
  {
    version: 20,
    name: 'rows keep one index, their primary key',
    // Kept up for every row COPYed in, the dataset-order index cost a push of 1,000,000 rows about
    // 2 s of the server's CPU (a third of the load itself) and served only readRows, which now
    // sorts the run's keys once instead (pg-rows.ts linesInOrder). The primary key (run_id, seq)
    // serves every other read: by place, the count, the integrity check.
    sql: 'DROP INDEX agentmark_rows_in_order;',
  },
  ...SERVE_READ_MIGRATIONS,
  // 40: the range of the streamed runs' robustness (issue 37).
  {
    version: 40,
    name: 'heartbeat of a running run',
    // The database's clock, set by the writer's batches and its timer (pg-storage.ts, heartbeat.ts):
    // a `running` run not heard from for ABANDONED_AFTER_MS is read as `abandoned`. Runs already
    // there get the migration's time: one still written then is heard from again at its next batch.
    // Not indexed, so a refresh is a HOT update that touches no index.
    sql: 'ALTER TABLE agentmark_runs ADD COLUMN heartbeat_at timestamptz NOT NULL DEFAULT now();',
  },
  // 50–59: what serve's change cursor reads (deleted runs, each change's transaction).
  ...CHANGE_MIGRATIONS,
  ...SERVE_MIGRATIONS,
];

/** The highest schema number this CLI knows. */
export function knownSchemaVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return Math.max(0, ...migrations.map((m) => m.version));
}
