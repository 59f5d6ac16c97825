/**
 * The transform of a TypeScript agentmark.config, kept under .agentmark/config-cache/ between
 * commands: written by the first, used by the next, never stale, never tracked by git.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitIn } from '../helpers/fresh-clone.js';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const SCORE = ['score', 'prompts/sentiment.prompt.mdx', '--outputs', 'datasets/sentiment-outputs.jsonl', '--format', 'json'];
const reasons = (stdout: string): unknown[] =>
  (JSON.parse(stdout) as { rows: Array<{ evals: Record<string, { reason: string }> }> }).rows.map((row) => row.evals['one_word']?.reason);

describe('the config transform cache', () => {
  it('is written by a command in an init project, used by the next, follows edits, and git ignores it', async () => {
    const temp = await tempProject();
    cleanup = temp.cleanup;
    expect((await runCli(['init', 'app'], { cwd: temp.dir })).code).toBe(0);
    const dir = join(temp.dir, 'app');
    gitIn(dir, 'init', '-q');
    gitIn(dir, 'add', '-A');
    gitIn(dir, 'commit', '-q', '-m', 'init');

    const first = await runCli(SCORE, { cwd: dir });
    expect(first.code).toBe(0);
    expect(reasons(first.stdout)).toEqual(['1 word', '1 word', '1 word', '1 word']);
    const cacheDir = join(dir, '.agentmark', 'config-cache');
    const entries = await readdir(cacheDir);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatch(/^[0-9a-f]{32}-[0-9a-f]{64}\.js$/);

    // The next command reads the entry (the scorer workers too) and writes nothing new.
    const again = await runCli(SCORE, { cwd: dir });
    expect(reasons(again.stdout)).toEqual(['1 word', '1 word', '1 word', '1 word']);
    expect(await readdir(cacheDir)).toEqual(entries);

    // An edit is a new key: the old entry is not used, and is replaced (one entry a file).
    const config = await readFile(join(dir, 'agentmark.config.ts'), 'utf8');
    await writeFile(join(dir, 'agentmark.config.ts'), config.replace("reason: `${words} word${words === 1 ? '' : 's'}`", "reason: `edited: ${words}`"));
    const edited = await runCli(SCORE, { cwd: dir });
    expect(reasons(edited.stdout)).toEqual(['edited: 1', 'edited: 1', 'edited: 1', 'edited: 1']);
    const afterEdit = await readdir(cacheDir);
    expect(afterEdit).toHaveLength(1);
    expect(afterEdit).not.toEqual(entries);

    // A damaged entry is a miss, and is written again.
    for (const name of await readdir(cacheDir)) await writeFile(join(cacheDir, name), 'garbage');
    const repaired = await runCli(SCORE, { cwd: dir });
    expect(reasons(repaired.stdout)).toEqual(['edited: 1', 'edited: 1', 'edited: 1', 'edited: 1']);
    const texts = await Promise.all((await readdir(cacheDir)).map((name) => readFile(join(cacheDir, name), 'utf8')));
    expect(texts.filter((text) => text !== 'garbage')).toHaveLength(1);

    // .agentmark/ is in the .gitignore init wrote: only the edited config shows.
    expect(gitIn(dir, 'status', '--porcelain', '--untracked-files=all')).toBe(' M agentmark.config.ts\n');
  }, 60_000);
});
