import { afterEach, expect, test, vi } from 'vitest';
import { ALPHA, BETA, READY, blocksAfter, count, edit, watchProject, type WatchProject } from './watch-process.js';

// Each test starts a CLI process and edits files; a loaded two-core machine needs room.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 30_000 });

let project: WatchProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const ALPHA_ERROR = '── prompts/alpha.prompt.mdx · error';

test('a prompt that no longer loads shows its error in place; the last results stay; fixing it reruns', async () => {
  project = await watchProject();
  const { dir } = project;
  const watch = project.start();
  await watch.waitFor((out) => out.includes(READY), 'the ready line');
  const good = /── prompts\/alpha\.prompt\.mdx · run (\S+)/.exec(watch.stdout)?.[1];

  let from = watch.stdout.length;
  await edit(dir, 'prompts/alpha.prompt.mdx', (text) => text.replace('  model_name: openai/gpt-4o-mini', '  model_name: [openai/gpt-4o-mini'));
  let out = await watch.waitFor(blocksAfter(from, ALPHA_ERROR), 'the error block');
  const block = out.slice(out.indexOf(ALPHA_ERROR, from));
  expect(block).toMatch(/\n {2}prompts\/alpha\.prompt\.mdx:\d+:\d+: /);
  expect(block).toContain(`last good results (run ${good}) still stand: mentions pass 100.0%`);

  // A broken component is pointed at too, and fixing it is what reruns the prompt.
  from = watch.stdout.length;
  await edit(dir, 'prompts/alpha.prompt.mdx', (text) => text.replace('[openai', 'openai'));
  out = await watch.waitFor(blocksAfter(from, ALPHA), 'alpha to rerun once fixed');

  from = watch.stdout.length;
  await edit(dir, 'prompts/components/signature.mdx', () => 'Sign as {props.name\n');
  out = await watch.waitFor(blocksAfter(from, ALPHA_ERROR), 'the component error');
  expect(out.slice(from)).toMatch(/prompts\/components\/signature\.mdx:\d+:\d+: /);

  from = watch.stdout.length;
  await edit(dir, 'prompts/components/signature.mdx', () => 'Sign as {props.name}\n');
  out = await watch.waitFor(blocksAfter(from, ALPHA), 'alpha to rerun once the component is fixed');

  // The other experiment never reran: its first results are the ones that stand.
  expect(count(out, BETA)).toBe(1);
});

test('a bad dataset line is shown at its line; a broken config holds every rerun until fixed', async () => {
  project = await watchProject();
  const { dir } = project;
  const watch = project.start();
  await watch.waitFor((out) => out.includes(READY), 'the ready line');

  let from = watch.stdout.length;
  await edit(dir, 'prompts/beta.jsonl', (text) => `${text}{"input": oops}\n`);
  let out = await watch.waitFor(blocksAfter(from, '── prompts/beta.prompt.mdx · error'), 'the dataset error');
  expect(out.slice(from)).toMatch(/prompts\/beta\.jsonl:3(:\d+)?: /);

  from = watch.stdout.length;
  await edit(dir, 'agentmark.config.ts', (text) => text.replace('scorers: { mentions },', 'scorers: { mentions ,,, },'));
  out = await watch.waitFor(blocksAfter(from, '── agentmark.config.ts · error'), 'the config error');
  expect(out.slice(from)).toMatch(/agentmark\.config\.ts:\d+:\d+: /);

  from = watch.stdout.length;
  await edit(dir, 'agentmark.config.ts', (text) => text.replace(',,,', ''));
  await edit(dir, 'prompts/beta.jsonl', (text) => text.replace('{"input": oops}\n', ''));
  out = await watch.waitFor(
    (stdout) => blocksAfter(from, ALPHA)(stdout) && blocksAfter(from, BETA)(stdout),
    'both to rerun once the config loads',
  );
  expect(out.slice(from)).toMatch(/3 rows · 3 cached · 0 errored/);
});
