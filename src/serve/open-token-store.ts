import type { Pool } from 'pg';
import { openStorage, storeSetting, type RunStorage } from '../store/index.js';
import type { Project } from '../project/types.js';
import { LocalTokenStore, tokensFile } from './local-token-store.js';
import type { TokenStore } from './token-store.js';

/**
 * The project's team store when it has one (AGENTMARK_STORE_URL, else agentmark.json's `store`;
 * connecting checks the schema, and a database that cannot be reached is STORE_UNREACHABLE naming
 * its host and port); undefined for the local folder.
 */
export async function openTeamStore(project: Project, env: NodeJS.ProcessEnv): Promise<RunStorage | undefined> {
  const { url } = storeSetting(project.file['store'], env, project.configPath);
  return url === undefined ? undefined : openStorage({ projectRoot: project.root, url });
}

/**
 * The tokens beside a store: in its database (sharing its connections; closing the tokens leaves
 * the store open), or in `.agentmark/tokens.json` without one.
 */
export async function tokenStoreOf(storage: RunStorage | undefined, project: Project): Promise<TokenStore> {
  if (storage === undefined || storage.kind === 'local') return new LocalTokenStore(tokensFile(project.root));
  const { PgTokenStore } = await import('./pg-token-store.js');
  // PgStorage is the one back end with a pool.
  return new PgTokenStore((storage as unknown as { pool: Pool }).pool, async () => undefined);
}

/** The project's tokens, for `agentmark tokens`: the store is closed with them. */
export async function openTokenStore(project: Project, env: NodeJS.ProcessEnv): Promise<TokenStore> {
  const storage = await openTeamStore(project, env);
  const tokens = await tokenStoreOf(storage, project);
  return storage === undefined ? tokens : { add: (r) => tokens.add(r), list: () => tokens.list(), byId: (id) => tokens.byId(id), revoke: (n, at) => tokens.revoke(n, at), close: () => storage.close() };
}
