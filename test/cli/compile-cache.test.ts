/**
 * The bin's V8 code cache (scripts/compile-cache.cjs): the CLI's chunks are compiled once and
 * kept in the user's cache folder (here XDG_CACHE_HOME, a temporary folder), then read back by
 * the next command instead of compiled again; a damaged file is a miss, made again.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ARGS = ['render', '--help'];
let cacheHome: string;
beforeEach(async () => {
  cacheHome = await mkdtemp(join(tmpdir(), 'agentmark-compile-cache-'));
});
afterEach(() => rm(cacheHome, { recursive: true, force: true }));

/** Every file under the cache folder, by path, with its bytes. */
async function cacheFiles(): Promise<Map<string, Buffer>> {
  const folder = join(cacheHome, 'agentmark', 'compile-cache');
  const files = new Map<string, Buffer>();
  const names = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of names) {
    if (entry.isFile()) files.set(join(entry.parentPath, entry.name), await readFile(join(entry.parentPath, entry.name)));
  }
  return files;
}

describe('the compile cache', () => {
  it("is written by a command into the user's cache folder, under the node version, and read by the next without writing again", async () => {
    const first = await runCli(ARGS, { cwd: root, env: { XDG_CACHE_HOME: cacheHome } });
    expect(first.code).toBe(0);
    const written = await cacheFiles();
    expect(written.size).toBeGreaterThan(0);
    const version = join(cacheHome, 'agentmark', 'compile-cache', `${process.version}-${process.arch}`);
    for (const file of written.keys()) expect(file.startsWith(`${version}/`)).toBe(true);
    const second = await runCli(ARGS, { cwd: root, env: { XDG_CACHE_HOME: cacheHome } });
    expect(second).toEqual(first);
    expect(await cacheFiles()).toEqual(written);
  });

  it('takes a damaged file for a miss: the same output, and the file made again', async () => {
    const first = await runCli(ARGS, { cwd: root, env: { XDG_CACHE_HOME: cacheHome } });
    const written = await cacheFiles();
    for (const file of written.keys()) await writeFile(file, 'not bytecode');
    const again = await runCli(ARGS, { cwd: root, env: { XDG_CACHE_HOME: cacheHome } });
    expect(again).toEqual(first);
    const remade = await cacheFiles();
    expect([...remade.keys()].sort()).toEqual([...written.keys()].sort());
    for (const bytes of remade.values()) expect(bytes.toString('latin1')).not.toBe('not bytecode');
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE=1, as node\'s own', async () => {
    const result = await runCli(ARGS, { cwd: root, env: { XDG_CACHE_HOME: cacheHome, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(result.code).toBe(0);
    expect((await cacheFiles()).size).toBe(0);
  });
});
