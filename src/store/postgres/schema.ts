import type { Pool, PoolClient } from 'pg';
import { RunStoreError } from '../store-error.js';
import { inTransaction } from './pg-client.js';
import { MIGRATIONS, knownSchemaVersion, type Migration } from './migrations.js';

/** Any fixed number: every agentmark process migrating one database takes this advisory lock. */
const MIGRATE_LOCK = 0x616d6b31;

const SCHEMA_TABLE = `CREATE TABLE IF NOT EXISTS agentmark_schema (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/** The schema numbers a database has applied (none: a database agentmark never used). */
export async function appliedVersions(client: Pool | PoolClient): Promise<number[]> {
  const exists = await client.query<{ found: string | null }>("SELECT to_regclass('agentmark_schema')::text AS found");
  if (exists.rows[0]?.found === null || exists.rows[0]?.found === undefined) return [];
  const { rows } = await client.query<{ version: number }>('SELECT version FROM agentmark_schema ORDER BY version');
  return rows.map((row) => row.version);
}

/**
 * Applies the migrations the database lacks, in order, in one transaction under an advisory lock
 * (two processes migrating at once: one applies, the other then finds nothing to do). Refuses a
 * database newer than this CLI. Returns the versions applied now.
 */
export async function migrate(pool: Pool, location: string, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATE_LOCK]);
    await client.query(SCHEMA_TABLE);
    const applied = new Set(await appliedVersions(client));
    await refuseNewer(client, [...applied], location, migrations);
    const done: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO agentmark_schema (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      done.push(migration.version);
    }
    return done;
  });
}

/**
 * Checks that the database's schema is the one this CLI writes: STORE_SCHEMA_NEWER when it has a
 * migration this CLI does not know (an older CLI would write what newer readers misread),
 * STORE_SCHEMA_OLD when it lacks some (`agentmark store migrate` brings it up).
 */
export async function checkSchema(pool: Pool, location: string, migrations: readonly Migration[] = MIGRATIONS): Promise<void> {
  const applied = await appliedVersions(pool);
  await refuseNewer(pool, applied, location, migrations);
  const missing = migrations.filter((m) => !applied.includes(m.version));
  if (missing.length > 0) {
    const top = Math.max(...applied);
    // Migrations are not added in number order: one missing below the database's highest is named,
    // or the message would say version N needs version N.
    const below = missing.filter((m) => m.version < top);
    const has = applied.length === 0 ? 'no agentmark schema' : `schema version ${top}${below.length === 0 ? '' : ` without ${migrationNames(below)}`}`;
    throw new RunStoreError('STORE_SCHEMA_OLD', `the store at ${location} has ${has}; this agentmark needs schema version ${knownSchemaVersion(migrations)}`, {
      hint: 'run `agentmark store migrate` to bring the database up to date',
    });
  }
}

/** `migration 40 ("heartbeat of a running run")`, `migrations 40 ("…") and 79 ("…")`. */
function migrationNames(list: ReadonlyArray<{ version: number; name: string }>): string {
  const named = list.map((m) => `${m.version} (${JSON.stringify(m.name)})`);
  const joined = named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  return `migration${named.length === 1 ? '' : 's'} ${joined}`;
}

/**
 * STORE_SCHEMA_NEWER for a database with a migration this CLI does not know, naming both schema
 * versions. Migrations are not added in number order (40 came after 100), so an unknown one below
 * this CLI's highest is named too: "schema version 101 with migration 79", not "101, newer than 101".
 */
async function refuseNewer(client: Pool | PoolClient, applied: readonly number[], location: string, migrations: readonly Migration[]): Promise<void> {
  const known = new Set(migrations.map((m) => m.version));
  const unknown = applied.filter((v) => !known.has(v));
  if (unknown.length === 0) return;
  const top = Math.max(...applied);
  const mine = knownSchemaVersion(migrations);
  let has = `schema version ${top}`;
  let lacks = '';
  if (top <= mine) {
    const { rows } = await client.query<{ version: number; name: string }>('SELECT version, name FROM agentmark_schema WHERE version = ANY($1::int[]) ORDER BY version', [unknown]);
    has += ` with ${migrationNames(rows)}`;
    lacks = `, without migration${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}`;
  }
  throw new RunStoreError('STORE_SCHEMA_NEWER', `the store at ${location} has ${has}, newer than this agentmark knows (schema version ${mine}${lacks})`, {
    hint: 'upgrade agentmark (npm install agentmark-eval@latest) before using this store',
  });
}
