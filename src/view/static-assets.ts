import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { packageFile } from '../package-paths.js';

export interface Asset {
  body: Buffer;
  type: string;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Where `npm run build` puts the front-end. */
export function webDir(): string {
  return packageFile('dist', 'web');
}

/**
 * The built front-end, read once into memory and served by exact name: a request path is
 * looked up in this map and never joined to a folder, so no path can reach another file.
 */
export async function loadAssets(dir = webDir()): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  const add = async (urlPath: string, file: string): Promise<void> => {
    assets.set(urlPath, { body: await readFile(file), type: TYPES[extname(file)] ?? 'application/octet-stream' });
  };
  await add('/', join(dir, 'index.html'));
  for (const name of await readdir(join(dir, 'assets'))) await add(`/assets/${name}`, join(dir, 'assets', name));
  return assets;
}
