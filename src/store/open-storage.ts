import { LocalStorage } from './local/local-storage.js';
import type { RunStorage } from './storage.js';

/** What picks the back end: nothing (today's `.agentmark/` folder) or a `postgres://` URL. */
export interface StorageChoice {
  projectRoot: string;
  /** `postgres://…` or `postgresql://…`; undefined: the local folder. @default undefined */
  url?: string;
  /** Apply missing schema migrations on connecting (`agentmark store migrate`). @default false */
  migrate?: boolean;
}

/**
 * The store a command works on. The PostgreSQL back end (and `pg`) is loaded only when a URL is
 * given, so a project on local files never loads either.
 */
export async function openStorage(choice: StorageChoice): Promise<RunStorage> {
  if (choice.url === undefined) return new LocalStorage(choice.projectRoot);
  const { PgStorage } = await import('./postgres/pg-storage.js');
  return PgStorage.connect(choice.url, { migrate: choice.migrate ?? false });
}

/** What `agentmark store migrate` did. */
export interface MigrateResult {
  /** The database, its password masked. */
  location: string;
  /** Schema numbers applied now, in order (none: it was up to date). */
  applied: number[];
  /** The schema version it has now. */
  version: number;
}

/** Applies the schema migrations the database lacks, in one transaction. */
export async function migrateStore(url: string): Promise<MigrateResult> {
  const [{ createPool, connectionError }, { migrate }, { knownSchemaVersion }, { maskUrl }] = await Promise.all([
    import('./postgres/pg-client.js'),
    import('./postgres/schema.js'),
    import('./postgres/migrations.js'),
    import('./mask-url.js'),
  ]);
  const location = maskUrl(url);
  const pool = await createPool(url);
  try {
    const applied = await migrate(pool, location);
    return { location, applied, version: knownSchemaVersion() };
  } catch (error) {
    throw connectionError(error, url, location);
  } finally {
    await pool.end().catch(() => undefined);
  }
}
