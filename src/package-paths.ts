import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'agentmark-eval';
let root: string | undefined;

/**
 * The folder holding this package's package.json, found by walking up from this module. Code
 * runs from src/ (tests), dist/ (tsc output) or dist/bundle/ (the CLI bundle) at different
 * depths, so a fixed `../../` would point at the wrong place in one of them.
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && isThisPackage(manifest)) return (root = dir);
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package root above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** An absolute path inside the package, e.g. `packageFile('schema', 'agentmark.schema.json')`. */
export function packageFile(...parts: string[]): string {
  return join(packageRoot(), ...parts);
}

function isThisPackage(manifest: string): boolean {
  try {
    const parsed: unknown = JSON.parse(readFileSync(manifest, 'utf8'));
    return parsed !== null && typeof parsed === 'object' && (parsed as { name?: unknown }).name === PACKAGE_NAME;
  } catch {
    return false;
  }
}
