import type { Project } from '../project/types.js';
import { LocalTokenStore, tokensFile } from './local-token-store.js';
import type { TokenStore } from './token-store.js';

/** The store URL a command uses: AGENTMARK_STORE_URL wins over agentmark.json's `store`. */
export function storeUrlOf(project: Project, env: NodeJS.ProcessEnv): string | undefined {
  const fromEnv = env['AGENTMARK_STORE_URL'];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const fromConfig = project.file['store'];
  return typeof fromConfig === 'string' && /^postgres(ql)?:\/\//.test(fromConfig) ? fromConfig : undefined;
}

/**
 * The project's tokens: in its store's database when it has one (connecting checks the schema,
 * and an unreachable database is an error naming its host and port), else in `.agentmark/tokens.json`.
 */
export async function openTokenStore(project: Project, env: NodeJS.ProcessEnv): Promise<TokenStore> {
  const url = storeUrlOf(project, env);
  if (url === undefined) return new LocalTokenStore(tokensFile(project.root));
  const [{ openStorage }, { PgTokenStore }, { reachStore }] = await Promise.all([import('../store/index.js'), import('./pg-token-store.js'), import('./reach-store.js')]);
  const storage = await reachStore(url, () => openStorage({ projectRoot: project.root, url }));
  const pool = (storage as unknown as { pool: import('pg').Pool }).pool;
  return new PgTokenStore(pool, () => storage.close());
}
