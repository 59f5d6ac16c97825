/**
 * Migrations 50–59 (issue 37, `serve` following the store without missing a change): deleted runs
 * recorded for the change cursor, and the transaction of each change, so a reader can ask again
 * for what transactions still open when it last looked have changed since.
 */
// The shape of migrations.ts's Migration, written out: importing it would make an import cycle.
export const CHANGE_MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 50,
    name: 'deleted runs and the transaction of each change',
    // A run's deletion (removeRun, a merge replacing its shards' result, a hand DELETE) leaves its id
    // with the next change number, by a trigger so no path forgets it: a server following the store
    // drops the run instead of serving its copy for ever. A change number is taken when the change
    // is made, not when it commits: a long transaction (a repair COPYing 1,000,000 rows) commits
    // with a number below ones a reader has already passed. Each change also records its top-level
    // transaction (pg_current_xact_id) so the reader asks, besides the numbers above its last, for
    // the changes of the transactions that were still open when it looked (pg-changes.ts).
    // Runs already stored have no transaction (NULL, the default set after the column is added): their
    // changes all committed before this migration did.
    sql: `
CREATE TABLE agentmark_deleted_runs (
  change_seq bigint PRIMARY KEY DEFAULT nextval('agentmark_change_seq'),
  change_xid bigint NOT NULL DEFAULT pg_current_xact_id()::text::bigint,
  run_id text NOT NULL,
  deleted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agentmark_deleted_runs_by_xid ON agentmark_deleted_runs (change_xid);
ALTER TABLE agentmark_runs ADD COLUMN change_xid bigint;
ALTER TABLE agentmark_runs ALTER COLUMN change_xid SET DEFAULT pg_current_xact_id()::text::bigint;
CREATE INDEX agentmark_runs_by_change_xid ON agentmark_runs (change_xid);
CREATE OR REPLACE FUNCTION agentmark_run_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_seq := nextval('agentmark_change_seq');
  NEW.change_xid := pg_current_xact_id()::text::bigint;
  RETURN NEW;
END $$;
CREATE FUNCTION agentmark_runs_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO agentmark_deleted_runs (run_id) SELECT id FROM gone ORDER BY id;
  RETURN NULL;
END $$;
CREATE TRIGGER agentmark_runs_deleted AFTER DELETE ON agentmark_runs REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION agentmark_runs_deleted();
`,
  },
];
