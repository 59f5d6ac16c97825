import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

test('a burst of saves to an experiment\'s files is one rerun', async () => {
  project = await watchProject();
  const { dir } = project;
  const watch = project.start();
  await watch.waitFor((out) => out.includes(READY), 'the ready line');
  const prompt = join(dir, 'prompts/alpha.prompt.mdx');
  const dataset = join(dir, 'prompts/alpha.jsonl');
  const original = readFileSync(prompt, 'utf8');
  const rows = readFileSync(dataset, 'utf8');

  // The watcher is held (SIGSTOP) while five saves land, alternating the prompt and its dataset
  // (saves of one file would reach it as one event), so they arrive as one burst of events
  // however slowly this process makes them on a loaded machine: nothing here is timed. The
  // debounce's own timing (100 ms of quiet) is tested with fake timers in
  // change-batcher.test.ts, and the time from a save to its rerun by the bench (scenario 6).
  const from = watch.stdout.length;
  watch.child.kill('SIGSTOP');
  try {
    for (let save = 1; save <= 5; save++) {
      if (save % 2 === 1) writeFileSync(prompt, original.replace('Greet', `Greet ${save}`));
      else writeFileSync(dataset, rows);
    }
  } finally {
    watch.child.kill('SIGCONT');
  }
  await watch.waitFor(blocksAfter(from, ALPHA), 'alpha to rerun');
  // A later change to the other experiment marks a point by which a second alpha rerun would have shown.
  const mark = watch.stdout.length;
  await edit(dir, 'prompts/beta.prompt.mdx', (text) => text.replace(/Describe[ \d]*/, 'Describe 1'));
  const out = await watch.waitFor(blocksAfter(mark, BETA), 'beta to rerun');
  const after = out.slice(from);
  expect(count(after, ALPHA)).toBe(1);
  expect(after).not.toContain('cancelled');
  // One batch for the five saves: both files on one line (in the order chokidar reported them).
  expect(after.split('\n').filter((line) => line.startsWith('changed: '))).toEqual([
    expect.stringMatching(/^changed: (prompts\/alpha\.prompt\.mdx, prompts\/alpha\.jsonl|prompts\/alpha\.jsonl, prompts\/alpha\.prompt\.mdx) → rerunning prompts\/alpha\.prompt\.mdx$/),
    'changed: prompts/beta.prompt.mdx → rerunning prompts/beta.prompt.mdx',
  ]);
  expect(after).toMatch(/3 rows · 0 cached/);
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
