import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Jiti } from 'jiti';

/**
 * Node's own module type of `file`: `.mjs`, or `.js` under a package.json with `"type": "module"`
 * (the nearest one, as node reads it).
 */
export async function isNativeEsm(file: string): Promise<boolean> {
  if (file.endsWith('.mjs')) return true;
  if (!file.endsWith('.js')) return false;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { type?: unknown };
      return manifest.type === 'module';
    } catch {
      // no package.json here (or not JSON): the next folder up decides
    }
    if (path.dirname(dir) === dir) return false;
  }
}

/**
 * Evaluates `file` afresh on every call, whatever its module type. jiti transpiles TypeScript and
 * CommonJS and evaluates them outside every module cache, but hands a native ES module
 * (`.mjs`, `.js` in a `"type": "module"` package) to node's `import()`, which caches it by URL
 * for the life of the process: a config edited and loaded again (the language server on save,
 * watch mode) would keep its first version. So a native ES module is transpiled too, as a `.ts`
 * config is, from its text as it is now, by the same loader (jiti, no module cache). Not a
 * `?v=<stamp>` cache-buster on the URL: node never frees a module it imported, and the config's
 * relative imports would still resolve to the URLs it first loaded.
 * Its relative imports of TypeScript or CommonJS files are evaluated afresh likewise; an ES
 * module file it imports is node's to load (jiti's async imports go native), and cached by it.
 */
export async function importFresh(jiti: Jiti, file: string): Promise<unknown> {
  if (!(await isNativeEsm(file))) return jiti.import(file);
  const source = await readFile(file, 'utf8');
  return jiti.evalModule(source, { id: file, filename: file, async: true, forceTranspile: true });
}
