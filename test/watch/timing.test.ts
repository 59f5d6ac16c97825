import { afterEach, expect, test, vi } from 'vitest';
import { echoResponder } from '../helpers/openai-server.js';
import { ALPHA, BETA, READY, blocksAfter, count, edit, until, watchProject, type WatchProject } from './watch-process.js';

// Each test starts a CLI process and edits files; a loaded two-core machine needs room.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 30_000 });

let project: WatchProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

test('a burst of five saves within 50 ms is one rerun', async () => {
  project = await watchProject();
  const { dir } = project;
  const watch = project.start();
  await watch.waitFor((out) => out.includes(READY), 'the ready line');

  const from = watch.stdout.length;
  for (let save = 1; save <= 5; save++) {
    await edit(dir, 'prompts/alpha.prompt.mdx', (text) => text.replace(/Greet( \d)?/, `Greet ${save}`));
    await new Promise((resolve) => setTimeout(resolve, 8));
  }
  await watch.waitFor(blocksAfter(from, ALPHA), 'alpha to rerun');
  // A later change to the other experiment marks a point by which a second alpha rerun would have shown.
  const mark = watch.stdout.length;
  await edit(dir, 'prompts/beta.prompt.mdx', (text) => text.replace('Describe', 'Explain'));
  const out = await watch.waitFor(blocksAfter(mark, BETA), 'beta to rerun');
  expect(count(out.slice(from), ALPHA)).toBe(1);
  expect(count(out.slice(from), 'changed: prompts/alpha.prompt.mdx')).toBe(1);
  expect(out.slice(from)).toMatch(/3 rows · 0 cached/);
});

test('an edit while an experiment is running cancels it (aborting its model calls) and restarts it', async () => {
  project = await watchProject({
    handler: (request) => (request.lastUserText.includes('SLOWLY') ? { text: request.lastUserText, latencyMs: 20_000 } : echoResponder(request)),
  });
  const { dir, server } = project;
  const watch = project.start();
  await watch.waitFor((out) => out.includes(READY), 'the ready line');

  const from = watch.stdout.length;
  await edit(dir, 'prompts/alpha.prompt.mdx', (text) => text.replace('Greet', 'Greet SLOWLY'));
  await until(() => server.inFlight === 3, 'the slow requests to be in flight');
  await edit(dir, 'prompts/alpha.prompt.mdx', (text) => text.replace('Greet SLOWLY', 'Hello'));
  const out = await watch.waitFor(blocksAfter(from, ALPHA), 'alpha to restart and finish');
  await until(() => server.closedEarly === 3, 'the server to see the aborted requests');
  const after = out.slice(from);
  expect(after).toMatch(/prompts\/alpha\.prompt\.mdx: run \S+ cancelled, restarting with the new files/);
  expect(after.indexOf('cancelled')).toBeLessThan(after.indexOf(ALPHA));
  expect(count(after, ALPHA)).toBe(1);
  expect(after).toMatch(/3 rows · 0 cached · 0 errored/);
});
