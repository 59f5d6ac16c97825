import { afterEach, expect, test, vi } from 'vitest';
import { blocksAfter, edit, READY, watchProject, type WatchProject } from './watch-process.js';

// Each test starts a CLI process and edits files; a loaded two-core machine needs room.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 30_000 });

let project: WatchProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const SENTIMENT = '── agentmark/sentiment.prompt.mdx · run ';

test("watch with no path runs every prompt under agentmark/, and an edit to agentmark.client.ts reruns what its evals score", async () => {
  project = await watchProject({}, 'projects/agentmark-app');
  const watch = project.start(['watch']);
  const out = await watch.waitFor((text) => text.includes(READY) && text.includes(SENTIMENT), 'the first runs');
  for (const prompt of ['agentmark/extraction/city.prompt.mdx', 'agentmark/greeting.prompt.mdx', 'agentmark/sentiment.prompt.mdx']) {
    expect(out).toContain(`── ${prompt} · run `);
  }

  const from = watch.stdout.length;
  await edit(project.dir, 'agentmark.client.ts', (text) => text.replace('const passed = String(output).trim().toLowerCase() === String(expectedOutput).trim().toLowerCase();', 'const passed = expectedOutput !== undefined;'));
  const after = await watch.waitFor(blocksAfter(from, SENTIMENT), 'the sentiment prompt to rerun');
  // Row 1 ("I love it") failed before; the edited function passes every row with an expected output.
  expect(after.slice(from)).toMatch(/sentiment_check\s+pass 100\.0%/);
});
