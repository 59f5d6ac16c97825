/**
 * Migrations 30–39 (issue 37, `agentmark serve` reading the store without copying it): a run's
 * view index kept in the database, and a change sequence on runs so a server follows the store
 * by what changed (`WHERE change_seq > $last`) instead of listing every run each second.
 */
// The shape of migrations.ts's Migration, written out: importing it would make an import cycle.
export const SERVE_READ_MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 30,
    name: 'view index in the store, change sequence on runs',
    // The view index (the viewer's rows table, RowIndex as JSON) describes the rows whose count and
    // sha256 it names; any UPDATE, DELETE or TRUNCATE of rows removes the index of their runs in the
    // same transaction and marks the runs changed, so an index present for a completed run's
    // integrity record means its rows are the ones checked when it completed (the read-back of
    // `complete`): serve reads rows a page at a time by their place, without hashing the run again.
    // Every insert or update of a run takes the next change number; runs already stored start with
    // one each (in the order of their ids) and have no index: serve copies those once, as before.
    sql: `
CREATE TABLE agentmark_view_index (
  run_id text PRIMARY KEY REFERENCES agentmark_runs (id) ON DELETE CASCADE,
  rows integer NOT NULL,
  sha256 text NOT NULL,
  columns text NOT NULL
);
CREATE SEQUENCE agentmark_change_seq;
ALTER TABLE agentmark_runs ADD COLUMN change_seq bigint;
UPDATE agentmark_runs SET change_seq = n FROM (SELECT id AS rid, nextval('agentmark_change_seq') AS n FROM (SELECT id FROM agentmark_runs ORDER BY id) AS o) AS s WHERE id = rid;
ALTER TABLE agentmark_runs ALTER COLUMN change_seq SET DEFAULT nextval('agentmark_change_seq'), ALTER COLUMN change_seq SET NOT NULL;
CREATE INDEX agentmark_runs_by_change ON agentmark_runs (change_seq);
CREATE FUNCTION agentmark_run_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_seq := nextval('agentmark_change_seq');
  RETURN NEW;
END $$;
CREATE TRIGGER agentmark_runs_change BEFORE UPDATE ON agentmark_runs FOR EACH ROW EXECUTE FUNCTION agentmark_run_changed();
CREATE FUNCTION agentmark_rows_edited() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM agentmark_view_index WHERE run_id IN (SELECT DISTINCT run_id FROM edited);
  UPDATE agentmark_runs SET change_seq = nextval('agentmark_change_seq') WHERE id IN (SELECT DISTINCT run_id FROM edited);
  RETURN NULL;
END $$;
CREATE TRIGGER agentmark_rows_updated AFTER UPDATE ON agentmark_rows REFERENCING OLD TABLE AS edited FOR EACH STATEMENT EXECUTE FUNCTION agentmark_rows_edited();
CREATE TRIGGER agentmark_rows_deleted AFTER DELETE ON agentmark_rows REFERENCING OLD TABLE AS edited FOR EACH STATEMENT EXECUTE FUNCTION agentmark_rows_edited();
CREATE FUNCTION agentmark_rows_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM agentmark_view_index;
  UPDATE agentmark_runs SET change_seq = nextval('agentmark_change_seq');
  RETURN NULL;
END $$;
CREATE TRIGGER agentmark_rows_truncate AFTER TRUNCATE ON agentmark_rows FOR EACH STATEMENT EXECUTE FUNCTION agentmark_rows_truncated();
`,
  },
];
