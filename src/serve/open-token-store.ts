import type { Pool } from 'pg';
import { openStorage, storeSetting } from '../store/index.js';
import type { Project } from '../project/types.js';
import { LocalTokenStore, tokensFile } from './local-token-store.js';
import type { TokenStore } from './token-store.js';

/**
 * The project's tokens: in its team store's database when it has one (AGENTMARK_STORE_URL, else
 * agentmark.json's `store`; connecting checks the schema, and a database that cannot be reached is
 * STORE_UNREACHABLE naming its host and port), else in `.agentmark/tokens.json`.
 */
export async function openTokenStore(project: Project, env: NodeJS.ProcessEnv): Promise<TokenStore> {
  const { url } = storeSetting(project.file['store'], env, project.configPath);
  if (url === undefined) return new LocalTokenStore(tokensFile(project.root));
  const [storage, { PgTokenStore }] = await Promise.all([openStorage({ projectRoot: project.root, url }), import('./pg-token-store.js')]);
  // The tokens share the store's connections: PgStorage is the one back end that has a pool.
  const pool = (storage as unknown as { pool: Pool }).pool;
  return new PgTokenStore(pool, () => storage.close());
}
