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

/** Five saves 8 ms apart, written synchronously; returns the gaps between them in ms. */
function burst(path: string, text: (save: number) => string): number[] {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const gaps: number[] = [];
  let last = performance.now();
  for (let save = 1; save <= 5; save++) {
    if (save > 1) Atomics.wait(pause, 0, 0, 8);
    writeFileSync(path, text(save));
    if (save > 1) gaps.push(performance.now() - last);
    last = performance.now();
  }
  return gaps;
}

test('a burst of five saves within 50 ms is one rerun', async () => {
  project = await watchProject();
  const { dir } = project;
  const watch = project.start();
  await watch.waitFor((out) => out.includes(READY), 'the ready line');
  const path = join(dir, 'prompts/alpha.prompt.mdx');
  const original = readFileSync(path, 'utf8');

  // On a crowded machine the writer itself can be descheduled mid-burst for longer than the
  // debounce, and then two reruns would be right; such an attempt is repeated, not judged.
  for (let attempt = 1; attempt <= 3; attempt++) {
    const from = watch.stdout.length;
    const gaps = burst(path, (save) => original.replace('Greet', `Greet ${attempt}.${save}`));
    await watch.waitFor(blocksAfter(from, ALPHA), 'alpha to rerun');
    // A later change to the other experiment marks a point by which a second alpha rerun would have shown.
    const mark = watch.stdout.length;
    await edit(dir, 'prompts/beta.prompt.mdx', (text) => text.replace(/Describe[ \d]*/, `Describe ${attempt}`));
    const out = await watch.waitFor(blocksAfter(mark, BETA), 'beta to rerun');
    if (Math.max(...gaps) >= 60 && attempt < 3) continue;
    expect(Math.max(...gaps), 'the pause between two saves').toBeLessThan(60);
    expect(count(out.slice(from), ALPHA)).toBe(1);
    expect(count(out.slice(from), 'changed: prompts/alpha.prompt.mdx')).toBe(1);
    expect(out.slice(from)).toMatch(/3 rows · 0 cached/);
    break;
  }
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
