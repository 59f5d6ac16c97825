import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LocalStorage } from '../../src/store/local/local-storage.js';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import type { RunStorage } from '../../src/store/storage.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { tempDir } from './fixtures.js';

/** One back end as the contract suite uses it: a fresh empty store, and a way to damage a stored row by hand. */
export interface Backend {
  name: 'local' | 'postgres';
  /** A new empty store (its own folder, or its own database). */
  make(): Promise<RunStorage>;
  /** Edits the text of the run's stored row `seq` (finish order) behind the store's back. */
  tamper(storage: RunStorage, runId: string, seq: number, edit: (line: string) => string): Promise<void>;
  /** Stops what `make` started. */
  stop(): Promise<void>;
}

export function localBackend(): Backend {
  const cleanups: Array<() => Promise<void>> = [];
  return {
    name: 'local',
    async make() {
      const { dir, cleanup } = await tempDir();
      cleanups.push(cleanup);
      return new LocalStorage(dir);
    },
    async tamper(storage, runId, seq, edit) {
      const path = join((storage as LocalStorage).store.runDir(runId), 'results.jsonl');
      const lines = (await readFile(path, 'utf8')).split('\n');
      lines[seq] = edit(lines[seq] as string);
      await writeFile(path, lines.join('\n'));
    },
    async stop() {
      for (const cleanup of cleanups) await cleanup();
    },
  };
}

/** A real PostgreSQL started for the file (test/helpers/postgres.ts), one database per store. */
export function postgresBackend(): Backend {
  let server: TestPostgres | undefined;
  let made = 0;
  return {
    name: 'postgres',
    async make() {
      server ??= await startPostgres();
      made += 1;
      return PgStorage.connect(await server.createDatabase(`contract_${made}`), { migrate: true });
    },
    async tamper(storage, runId, seq, edit) {
      const pool = (storage as PgStorage).pool;
      const { rows } = await pool.query<{ line: string }>('SELECT line FROM agentmark_rows WHERE run_id = $1 AND seq = $2', [runId, seq]);
      await pool.query('UPDATE agentmark_rows SET line = $3 WHERE run_id = $1 AND seq = $2', [runId, seq, edit(rows[0]?.line as string)]);
    },
    async stop() {
      await server?.stop();
    },
  };
}
