import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { ConfigError } from '../errors/index.js';
import { parseEnv } from './parse-env.js';

/** Read in this order; a later file overrides an earlier one, and the real environment wins over both. */
export const ENV_FILES = ['.env', '.env.local'] as const;

/**
 * Loads `.env` then `.env.local` from the project root into `env`. A variable already set in
 * the environment (before this call) is never overridden, so `KEY=x agentmark …` and CI secrets
 * win; `.env.local` (personal, never committed) wins over `.env`. Returns the names it set,
 * never the values.
 */
export async function loadProjectEnv(root: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const fromFiles = new Map<string, string>();
  for (const name of ENV_FILES) {
    const file = path.join(root, name);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue;
      throw new ConfigError('CONFIG_ENV_UNREADABLE', `cannot read ${name}: ${code ?? String(error)}`, {
        location: { file },
        hint: `make ${name} a readable file, or remove it`,
      });
    }
    for (const [key, value] of parseEnv(text, file)) fromFiles.set(key, value);
  }
  const set: string[] = [];
  for (const [key, value] of fromFiles) {
    if (env[key] !== undefined) continue;
    env[key] = value;
    set.push(key);
  }
  return set;
}
