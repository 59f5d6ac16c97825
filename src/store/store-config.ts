import { ConfigError } from '../errors/index.js';
import { maskUrl } from './mask-url.js';

/** The environment variable naming the team store; it wins over agentmark.json's `store`. */
export const STORE_URL_ENV = 'AGENTMARK_STORE_URL';

/** Where a project's runs are kept, and who said so. */
export interface StoreSetting {
  /** undefined: the local `.agentmark/` folder. */
  url?: string;
  source: 'env' | 'agentmark.json' | 'default';
}

/**
 * The store a project uses: `AGENTMARK_STORE_URL` (the environment or the project's `.env`), else
 * agentmark.json's `store`, else the local folder (`"local"` says so explicitly). agentmark.json is
 * committed, so a URL there must not carry a password (CONFIG_STORE_PASSWORD): give it in the
 * environment, as `AGENTMARK_STORE_URL` or PostgreSQL's own `PGPASSWORD`, which `pg` reads.
 */
export function storeSetting(fileStore: unknown, env: NodeJS.ProcessEnv, configPath = 'agentmark.json'): StoreSetting {
  const fromEnv = env[STORE_URL_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return { url: checkUrl(fromEnv.trim(), STORE_URL_ENV), source: 'env' };
  if (fileStore === undefined || fileStore === 'local') return { source: 'default' };
  if (typeof fileStore !== 'string') {
    throw new ConfigError('CONFIG_BAD_STORE', `"store" must be a string, got ${JSON.stringify(fileStore)}`, { location: { file: configPath }, hint: 'e.g. "store": "postgres://agentmark@db.internal:5432/evals", or "local"' });
  }
  const url = checkUrl(fileStore.trim(), configPath);
  if (new URL(url).password !== '') {
    throw new ConfigError('CONFIG_STORE_PASSWORD', `"store" in ${configPath} holds a password (${maskUrl(url)}): agentmark.json is committed`, {
      location: { file: configPath },
      hint: `take the password out, and give it as PGPASSWORD (or the whole URL as ${STORE_URL_ENV}) in the environment or the project's .env`,
    });
  }
  return { url, source: 'agentmark.json' };
}

function checkUrl(url: string, where: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') || parsed.hostname === '') {
    throw new ConfigError('CONFIG_BAD_STORE', `the store ${maskUrl(url)} (from ${where}) is not a postgres:// URL`, {
      location: { file: where },
      hint: 'e.g. postgres://agentmark@db.internal:5432/evals, or "local" for the .agentmark/ folder',
    });
  }
  return url;
}
