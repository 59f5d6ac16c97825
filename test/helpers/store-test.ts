import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import { startPostgres, type TestPostgres } from './postgres.js';
import { tempProject } from './temp-project.js';

/** A fresh, migrated database for each test of the file, on one PostgreSQL server for the file. */
export interface StoreTestDatabase {
  /** The current test's database URL. */
  readonly url: string;
  /** The current test's store, open on `url` (closed after the test). */
  readonly storage: PgStorage;
  /** The file's server, to make another database. */
  readonly server: TestPostgres;
}

/**
 * Registers the hooks that give each test its own database (`<prefix>_<n>`) with the store's
 * schema, as `agentmark store migrate` makes it. Read the getters inside tests, not at import.
 */
export function usePostgresStore(prefix: string): StoreTestDatabase {
  let server: TestPostgres | undefined;
  let storage: PgStorage | undefined;
  let url = '';
  let made = 0;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());
  beforeEach(async () => {
    made += 1;
    url = await (server as TestPostgres).createDatabase(`${prefix}_${made}`);
    storage = await PgStorage.connect(url, { migrate: true });
  });
  afterEach(async () => {
    await storage?.close();
    storage = undefined;
  });
  return {
    get url() {
      return url;
    },
    get storage() {
      if (storage === undefined) throw new Error('usePostgresStore: storage read outside a test');
      return storage;
    },
    get server() {
      if (server === undefined) throw new Error('usePostgresStore: server read before beforeAll');
      return server;
    },
  };
}

/**
 * Gives back a maker of empty project folders ("clones" on machines that share nothing: only an
 * `agentmark.json`), each removed after its test.
 */
export function useEmptyClones(): () => Promise<string> {
  const folders: Array<{ dir: string; cleanup: () => Promise<void> }> = [];
  afterEach(async () => {
    for (const folder of folders.splice(0)) await folder.cleanup();
  });
  return async () => {
    const folder = await tempProject({ 'agentmark.json': '{ "version": "2.0.0" }\n' });
    folders.push(folder);
    return folder.dir;
  };
}
