import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Jiti } from 'jiti';
import { cachedTransform, CONFIG_CACHE_DIR } from './config-transform-cache.js';

/**
 * The loader for the project's own TypeScript (the config, the AgentMark client, and the local
 * files they import): jiti with no module cache, so every load evaluates the files afresh (watch
 * mode sees edits), and, unless `cache` is false, with its transforms kept under the project's
 * `.agentmark/config-cache/` (see cachedTransform).
 */
export function projectJiti(file: string, root: string, cache: boolean): Jiti {
  // jiti's CommonJS entry, required: \`import('jiti')\` has node scan jiti's 190 KB CommonJS core
  // for named exports (cjs-module-lexer), ~20 ms of every load in a CPU profile, in each worker too.
  const { createJiti } = createRequire(import.meta.url)('jiti') as typeof import('jiti');
  const options = { fsCache: false, moduleCache: false, interopDefault: false } as const;
  if (!cache) return createJiti(file, options);
  // jiti's own transform (Babel, loaded on the first miss), behind the cache.
  const plain = createJiti(file, options);
  return createJiti(file, { ...options, transform: cachedTransform(join(root, CONFIG_CACHE_DIR), (input) => ({ code: plain.transform(input) })) });
}
