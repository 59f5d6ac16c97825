/**
 * The serve side's migrations (numbers 100 and up, see migrations.ts): tokens of `agentmark
 * serve`, the shared response cache, shards in the store. Kept apart from the run store's so
 * the two lists grow without touching each other.
 */
// The shape of migrations.ts's Migration, written out: importing it would make an import cycle.
export const SERVE_MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 100,
    name: 'serve tokens',
    sql: `
CREATE TABLE agentmark_tokens (
  id text PRIMARY KEY,
  name text NOT NULL,
  role text NOT NULL,
  hash text NOT NULL,
  created_at text NOT NULL,
  revoked_at text
);
CREATE UNIQUE INDEX agentmark_tokens_active_name ON agentmark_tokens (name) WHERE revoked_at IS NULL;
`,
  },
  {
    version: 101,
    name: 'shared response cache',
    sql: `
CREATE TABLE agentmark_cache (
  key text PRIMARY KEY,
  segment text NOT NULL,
  entry text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agentmark_cache_by_segment ON agentmark_cache (segment);
`,
  },
];
