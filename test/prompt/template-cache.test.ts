import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Project } from '../../src/project/types.js';
import { loadPrompt } from '../../src/prompt/index.js';
import { writeFiles } from './helpers.js';

const FRONT = '---\nname: cached\ntext_config:\n  model_name: openai/gpt-4o-mini\n---\n';

async function projectWith(body: string, extra: Record<string, string> = {}): Promise<{ project: Project; path: string; cacheDir: string }> {
  const root = await writeFiles({ 'main.prompt.mdx': FRONT + body, ...extra });
  const project: Project = { root, configPath: join(root, 'agentmark.json'), file: {}, promptRoot: root, scores: {}, builtInModels: [] };
  return { project, path: join(root, 'main.prompt.mdx'), cacheDir: join(root, '.agentmark', 'prompt-cache') };
}

describe('parsed bodies kept between loads', () => {
  it('stores each parsed body (the prompt and its components) and reads it back on the next load', async () => {
    const { project, path, cacheDir } = await projectWith("import Sign from './sign.mdx';\n\n<User>hi {props.name} <Sign /></User>\n", {
      'sign.mdx': '-- {props.team ?? "support"}',
    });
    const first = await loadPrompt(path, { project });
    const entries = (await readdir(cacheDir)).sort();
    expect(entries).toHaveLength(2);
    expect(entries.every((name) => /^[0-9a-f]{64}\.json$/.test(name))).toBe(true);
    const second = await loadPrompt(path, { project });
    expect(second.render({ name: 'Ada' }).messages).toEqual(first.render({ name: 'Ada' }).messages);
    expect(second.render({ name: 'Ada' }).messages).toEqual([{ role: 'user', content: 'hi Ada -- support' }]);
    expect((await readdir(cacheDir)).sort()).toEqual(entries);
  });

  it('uses the stored body: an entry is the parse of exactly that text', async () => {
    const { project, path, cacheDir } = await projectWith('<User>{props.a}</User>\n');
    await loadPrompt(path, { project });
    const [entry] = await readdir(cacheDir);
    const file = join(cacheDir, entry ?? '');
    // Point the stored expression at props.b: the next load renders from the entry, not the file.
    await writeFile(file, (await readFile(file, 'utf8')).replaceAll('"name":"a"', '"name":"b"'));
    const prompt = await loadPrompt(path, { project });
    expect(prompt.render({ a: 'from a', b: 'from b' }).messages).toEqual([{ role: 'user', content: 'from b' }]);
  });

  it('a changed body is a new entry, never a stale one', async () => {
    const { project, path, cacheDir } = await projectWith('<User>one</User>\n');
    await loadPrompt(path, { project });
    await writeFile(path, `${FRONT}<User>two</User>\n`);
    const prompt = await loadPrompt(path, { project });
    expect(prompt.render({}).messages).toEqual([{ role: 'user', content: 'two' }]);
    expect(await readdir(cacheDir)).toHaveLength(2);
  });

  it('an unreadable entry is a miss and is written again', async () => {
    const { project, path, cacheDir } = await projectWith('<User>hi</User>\n');
    await loadPrompt(path, { project });
    const [entry] = await readdir(cacheDir);
    await writeFile(join(cacheDir, entry ?? ''), '{"nodes": 3');
    expect((await loadPrompt(path, { project })).render({}).messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(JSON.parse(await readFile(join(cacheDir, entry ?? ''), 'utf8'))).toHaveProperty('nodes');
  });

  it('a cache folder that cannot be written changes nothing but speed', async () => {
    const { project, path } = await projectWith('<User>hi</User>\n', { '.agentmark/prompt-cache': 'a file, not a folder' });
    expect((await loadPrompt(path, { project })).render({}).messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('a regular-expression literal is still refused when its body comes from the cache', async () => {
    const { project, path } = await projectWith('<User>{/a+/}</User>\n');
    // Refused at load (a static template error), from the parser's tree and from the cache alike.
    const messages = async (): Promise<string> => {
      try {
        (await loadPrompt(path, { project })).render({});
        return 'rendered';
      } catch (error) {
        return (error as { code?: string }).code ?? String(error);
      }
    };
    const first = await messages();
    expect(first).toBe('TEMPLATE_UNSUPPORTED_SYNTAX');
    expect(await messages()).toBe(first);
  });

  it('nothing is written without a project', async () => {
    const { path, cacheDir } = await projectWith('<User>hi</User>\n');
    await loadPrompt(path);
    await expect(readdir(cacheDir)).rejects.toThrow(/ENOENT/);
  });
});

