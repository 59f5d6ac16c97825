import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * Static `import … from './x'`, side-effect `import './x'`, `export … from './x'`, and
 * literal `import('./x')` / `require('./x')`. Only relative specifiers matter: packages are
 * not project files and watch mode must not watch node_modules.
 */
const SPECIFIER =
  /(?:\bimport\s*(?:type\s+)?(?:[\w$*{}\s,]+?\s*from\s*)?|\bexport\s*(?:type\s+)?[\w$*{}\s,]*?\s*from\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)(['"])(\.{1,2}\/[^'"\n]*)\1/g;

const EXTENSIONS = ['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs', '.jsx', '.json'];

/** Comments could hold example imports that are not real dependencies. */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The relative specifiers a module's source imports or re-exports. */
export function relativeSpecifiers(source: string): string[] {
  const found: string[] = [];
  for (const match of stripComments(source).matchAll(SPECIFIER)) {
    if (match[2]) found.push(match[2]);
  }
  return found;
}

/**
 * Resolves a relative specifier the way TypeScript-aware loaders do: the exact file, then
 * with an extension added, then `./x.js` written for `./x.ts`, then `./x/index.*`.
 */
export async function resolveRelative(fromFile: string, specifier: string): Promise<string | undefined> {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [base, ...EXTENSIONS.map((ext) => base + ext)];
  const swapped = base.replace(/\.(m|c)?js$/, (_match: string, kind: string | undefined) => `.${kind ?? ''}ts`);
  if (swapped !== base) candidates.push(swapped, swapped + 'x');
  candidates.push(...EXTENSIONS.map((ext) => path.join(base, `index${ext}`)));
  for (const candidate of candidates) {
    if (await isFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * `entry` plus every file under `root` it imports, transitively, in discovery order.
 * Files outside `root` or in node_modules are left out: they are not the project's to watch.
 */
export async function collectLocalImports(entry: string, root: string): Promise<string[]> {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (file.endsWith('.json')) continue;
    let source: string;
    try {
      source = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    for (const specifier of relativeSpecifiers(source)) {
      const resolved = await resolveRelative(file, specifier);
      if (!resolved || seen.has(resolved) || !isInside(resolved, root)) continue;
      seen.add(resolved);
      queue.push(resolved);
    }
  }
  return [...seen];
}

function isInside(file: string, root: string): boolean {
  const relative = path.relative(root, file);
  return !relative.startsWith('..') && !path.isAbsolute(relative) && !relative.split(path.sep).includes('node_modules');
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
