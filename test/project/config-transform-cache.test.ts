import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TransformOptions, TransformResult } from 'jiti';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedTransform, CONFIG_CACHE_DIR, transformKey } from '../../src/project/config-transform-cache.js';
import { loadConfig, loadProject } from '../../src/project/index.js';
import { params } from '../scoring/fixtures.js';
import { makeTempDir } from './temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function temp(files: Record<string, string> = {}) {
  const dir = await makeTempDir(files);
  cleanups.push(dir.cleanup);
  return dir;
}

/** A stand-in transform that says what it was given, and counts its calls. */
function countingTransform(): { transform: (input: TransformOptions) => TransformResult; calls: string[] } {
  const calls: string[] = [];
  return { calls, transform: (input) => (calls.push(input.source), { code: `/* from */ ${input.source}` }) };
}

const entries = async (dir: string): Promise<string[]> => (await readdir(dir).catch(() => [])).sort();

describe('cachedTransform', () => {
  it('transforms a text once; the same text again is read from its entry, named by its key', async () => {
    const { dir } = await temp();
    const inner = countingTransform();
    const cached = cachedTransform(dir, inner.transform);
    const input = { source: 'export const a: number = 1;', filename: '/p/agentmark.config.ts', ts: true, async: true };
    expect(cached(input)).toEqual({ code: '/* from */ export const a: number = 1;' });
    expect(cached({ ...input })).toEqual({ code: '/* from */ export const a: number = 1;' });
    expect(inner.calls).toHaveLength(1);
    expect(await entries(dir)).toEqual([`${transformKey(input)}.js`]);
  });

  it('a new text, another file or other options is a new key: an old entry is never used for it', async () => {
    const { dir } = await temp();
    const inner = countingTransform();
    const cached = cachedTransform(dir, inner.transform);
    const input = { source: 'export default 1;', filename: '/p/agentmark.config.ts', ts: true };
    cached(input);
    expect(cached({ ...input, source: 'export default 2;' }).code).toBe('/* from */ export default 2;');
    cached({ ...input, filename: '/p/other.ts' });
    cached({ ...input, async: true });
    expect(inner.calls).toHaveLength(4);
    // One entry a file and options: the new text replaced the old one's entry.
    expect(await entries(dir)).toHaveLength(3);
    expect(await entries(dir)).not.toContain(`${transformKey(input)}.js`);
    expect(new Set([input, { ...input, source: 'x' }, { ...input, filename: 'y' }].map(transformKey)).size).toBe(3);
  });

  it('an entry that is damaged, truncated or edited is a miss, and is written again', async () => {
    const { dir } = await temp();
    const inner = countingTransform();
    const cached = cachedTransform(dir, inner.transform);
    const input = { source: 'export default 3;', filename: '/p/agentmark.config.ts' };
    cached(input);
    const entry = join(dir, `${transformKey(input)}.js`);
    const good = await readFile(entry, 'utf8');
    const damaged = [
      'not code at all',
      good.slice(0, good.length - 10),
      good.replace('/* from */', '/* evil */'),
      '',
    ];
    for (const [i, text] of damaged.entries()) {
      await writeFile(entry, text);
      expect(cached(input).code).toBe('/* from */ export default 3;');
      expect(inner.calls).toHaveLength(i + 2);
      expect(await readFile(entry, 'utf8')).toBe(good);
    }
  });

  it('never keeps a failed transform (a syntax error is reported afresh each time)', async () => {
    const { dir } = await temp();
    let calls = 0;
    const cached = cachedTransform(dir, () => (calls++, { code: 'exports.__JITI_ERROR__ = {}', error: new Error('ParseError') }));
    cached({ source: 'export default {' });
    cached({ source: 'export default {' });
    expect(calls).toBe(2);
    expect(await entries(dir)).toEqual([]);
  });

  it('a folder it cannot write costs only the transform', async () => {
    const { dir, write } = await temp();
    await write('taken', 'a file where the folder should be');
    const inner = countingTransform();
    const cached = cachedTransform(join(dir, 'taken'), inner.transform);
    expect(cached({ source: 'export default 4;' }).code).toBe('/* from */ export default 4;');
    expect(cached({ source: 'export default 4;' }).code).toBe('/* from */ export default 4;');
    expect(inner.calls).toHaveLength(2);
  });
});

describe('loadConfig with the transform cache', () => {
  const config = (suffix: string) =>
    `import { shout } from './lib/shout';\nexport default { scorers: { loud: ({ output }: { output: unknown }) => ({ score: shout(String(output)) === '${suffix}' ? 1 : 0, reason: shout(String(output)) }) } };\n`;

  it('keeps the config and the TS files it imports in .agentmark/config-cache/, and sees every edit', async () => {
    const { dir, write } = await temp({
      'agentmark.json': '{}',
      'agentmark.config.ts': config('HI!'),
      'lib/shout.ts': "export function shout(text: string): string { return `${text.toUpperCase()}!`; }\n",
    });
    const project = await loadProject(dir);
    const reason = async (): Promise<unknown> => {
      const loaded = await loadConfig(project, { fsCache: true });
      return loaded.scorers?.['loud']?.(params({ output: 'hi' }), { signal: new AbortController().signal });
    };
    expect(await reason()).toEqual({ score: 1, reason: 'HI!' });
    const cacheDir = join(dir, CONFIG_CACHE_DIR);
    const first = await entries(cacheDir);
    expect(first).toHaveLength(2);

    // From the cache: the same answer, no new entry.
    expect(await reason()).toEqual({ score: 1, reason: 'HI!' });
    expect(await entries(cacheDir)).toEqual(first);

    // An edit to the imported file is seen, and its entry replaces the old text's: the cache never grows with edits.
    await write('lib/shout.ts', "export function shout(text: string): string { return `${text.toUpperCase()}?`; }\n");
    expect(await reason()).toEqual({ score: 0, reason: 'HI?' });
    expect(await entries(cacheDir)).toHaveLength(2);
    expect(await entries(cacheDir)).not.toEqual(first);

    // So is an edit to the config.
    await write('agentmark.config.ts', config('HI?'));
    expect(await reason()).toEqual({ score: 1, reason: 'HI?' });
    expect(await entries(cacheDir)).toHaveLength(2);

    // Damaged entries are misses, written again.
    for (const name of await entries(cacheDir)) await writeFile(join(cacheDir, name), 'garbage');
    expect(await reason()).toEqual({ score: 1, reason: 'HI?' });
    const rewritten = await Promise.all((await entries(cacheDir)).map((name) => readFile(join(cacheDir, name), 'utf8')));
    expect(rewritten.filter((text) => text !== 'garbage')).toHaveLength(2);
  });

  it('is off by default: the library writes nothing into the project', async () => {
    const { dir } = await temp({ 'agentmark.json': '{}', 'agentmark.config.ts': 'export default { scorers: {} };\n' });
    await loadConfig(await loadProject(dir));
    await loadConfig(await loadProject(dir), { fsCache: false });
    expect(await entries(join(dir, '.agentmark'))).toEqual([]);
  });
});
