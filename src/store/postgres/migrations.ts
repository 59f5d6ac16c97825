/**
 * The database schema, as numbered migrations applied in order and never edited once released.
 * Numbers 1–99 are the run store's; 100 and up belong to the serve side (tokens, the shared
 * response cache, shards in the store). A database records every number applied in
 * `agentmark_schema`; a CLI that finds a number it does not know is older than the database.
 */
import { SERVE_MIGRATIONS } from './serve-migrations.js';

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
  // 10, not 2: other store migrations were being written beside this one (issue 37).
  {
    version: 10,
    name: 'rows load without a per-row foreign-key check',
    // The foreign key ran a lookup of the run for every row COPYed in: half the time of a
    // 1,000,000-row push. Rows are only ever added under the run's advisory lock after checking
    // the run is there, and removeRun deletes them under the same lock (pg-rows.ts, pg-storage.ts).
    sql: 'ALTER TABLE agentmark_rows DROP CONSTRAINT agentmark_rows_run_id_fkey;',
  },
  ...SERVE_MIGRATIONS,
];

/** The highest schema number this CLI knows. */
export function knownSchemaVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return Math.max(0, ...migrations.map((m) => m.version));
}
