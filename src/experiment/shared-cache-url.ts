import { ConfigError } from '../errors/index.js';
import type { Project } from '../project/types.js';
import { storeSetting } from '../store/store-config.js';

/**
 * The database of the shared response cache: agentmark.json's `cache: "store"` asks for the team
 * store's (`AGENTMARK_STORE_URL`, else `store`); `"local"` or no `cache` keeps it in
 * `.agentmark/cache/` alone.
 */
export function sharedCacheUrl(project: Project, env: NodeJS.ProcessEnv): string | undefined {
  const cache = project.file['cache'];
  if (cache === undefined || cache === 'local') return undefined;
  if (cache !== 'store') {
    throw new ConfigError('CONFIG_BAD_CACHE', `"cache" must be "local" or "store", got ${JSON.stringify(cache)}`, { location: { file: project.configPath }, hint: '"store" shares the response cache through the team store; "local" (the default) keeps it in .agentmark/cache/' });
  }
  const { url } = storeSetting(project.file['store'], env, project.configPath);
  if (url === undefined) {
    throw new ConfigError('CONFIG_CACHE_NEEDS_STORE', '"cache": "store" needs a team store, and this project has none', { location: { file: project.configPath }, hint: 'set AGENTMARK_STORE_URL (the environment or .env) or "store" in agentmark.json, or remove "cache"' });
  }
  return url;
}
