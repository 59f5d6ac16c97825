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
