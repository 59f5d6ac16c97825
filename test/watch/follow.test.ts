import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { ALPHA, READY, blocksAfter, count, edit, watchProject, type WatchProcess, type WatchProject } from './watch-process.js';

// Each test starts a CLI process and edits files; a loaded two-core machine needs room.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 30_000 });

let project: WatchProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

/** Any error block: the prompt's own, or the shared one of agentmark.json or the config. */
const ERROR_BLOCK = / · error\n/g;
const errorsAfter = (from: number) => (stdout: string) => (stdout.slice(from).match(ERROR_BLOCK)?.length ?? 0) >= 1;

/**
 * Takes `file` away (deleted, or renamed to a sibling), waits for the error it causes, puts it
 * back, and checks that putting it back reruns alpha and that a later edit of it reruns alpha
 * again: the watcher follows the path, not the file it first saw.
 */
async function awayAndBack(
  watch: WatchProcess,
  dir: string,
  file: string,
  how: 'deleted and recreated' | 'renamed away and back',
  change: (text: string) => string,
  gone: (from: number) => (stdout: string) => boolean = errorsAfter,
): Promise<void> {
  const path = join(dir, file);
  const text = await readFile(path, 'utf8');
  let from = watch.stdout.length;
  if (how === 'deleted and recreated') await unlink(path);
  else await rename(path, `${path}.away`);
  await watch.waitFor(gone(from), `the error once ${file} is gone (${how})`);

  from = watch.stdout.length;
  if (how === 'deleted and recreated') await writeFile(path, text);
  else await rename(`${path}.away`, path);
  await watch.waitFor(blocksAfter(from, ALPHA), `alpha to rerun once ${file} is back (${how})`);

  from = watch.stdout.length;
  await edit(dir, file, change);
  const out = await watch.waitFor(blocksAfter(from, ALPHA), `alpha to rerun on an edit of ${file} after it came back (${how})`);
  expect(out.slice(from)).not.toMatch(ERROR_BLOCK);
}

/** Watches alpha alone, named as a file: no target folder hands out events for its dependencies. */
async function watchAlpha(): Promise<{ watch: WatchProcess; dir: string }> {
  project = await watchProject();
  const watch = project.start(['watch', 'prompts/alpha.prompt.mdx']);
  await watch.waitFor((out) => out.includes(READY), 'the ready line');
  return { watch, dir: project.dir };
}

const CASES: Array<{ kind: string; file: string; change: (text: string) => string; gone?: (from: number) => (stdout: string) => boolean }> = [
  { kind: 'the dataset', file: 'prompts/alpha.jsonl', change: (text) => `${text}{"input": {"name": "Edsger"}, "expected_output": "Edsger"}\n` },
  { kind: 'a component', file: 'prompts/components/signature.mdx', change: () => 'Signed, {props.name}\n' },
  { kind: 'a module the config imports', file: 'scorers/mentions.ts', change: (text) => `${text}// edited\n` },
  { kind: 'agentmark.json', file: 'agentmark.json', change: (text) => text.replace('The output mentions', 'The answer mentions') },
  { kind: 'the config file', file: 'agentmark.config.ts', change: (text) => `${text}// edited\n` },
  {
    kind: 'the prompt named on the command line',
    file: 'prompts/alpha.prompt.mdx',
    change: (text) => text.replace('Greet', 'Welcome'),
    gone: (from) => (stdout) => stdout.slice(from).includes('prompts/alpha.prompt.mdx was deleted; no longer watched'),
  },
];

for (const { kind, file, change, gone } of CASES) {
  test(`${kind} deleted and recreated, then renamed away and back, stays watched`, async () => {
    const { watch, dir } = await watchAlpha();
    await awayAndBack(watch, dir, file, 'deleted and recreated', change, gone);
    await awayAndBack(watch, dir, file, 'renamed away and back', change, gone);
    // Three runs per round (back, edit) plus the first: nothing ran twice for one event.
    expect(count(watch.stdout, ALPHA)).toBe(5);
    expect(watch.stderr).toBe('');
  });
}
