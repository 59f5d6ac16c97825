import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { ALPHA, BETA, READY, blocksAfter, edit, watchProject, type WatchProject } from './watch-process.js';

// Each test starts a CLI process and edits files; a loaded two-core machine needs room.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 30_000 });

let project: WatchProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const MJS_CONFIG = `export default {
  scorers: {
    mentions: ({ output, expectedOutput }) => ({ passed: String(output).includes(String(expectedOutput)) }),
  },
};
`;

test('an ES module config (.mjs) edited while watching: the rerun scores with the new text, not the first load', async () => {
  project = await watchProject();
  await rm(join(project.dir, 'agentmark.config.ts'));
  await writeFile(join(project.dir, 'agentmark.config.mjs'), MJS_CONFIG);
  const watch = project.start();
  await watch.waitFor((out) => out.includes(READY), 'the ready line');
  expect(watch.stdout).toContain('mentions  pass 100.0%');

  const from = watch.stdout.length;
  await edit(project.dir, 'agentmark.config.mjs', (text) => text.replace('passed: String', 'passed: !String'));
  const out = await watch.waitFor((stdout) => blocksAfter(from, ALPHA)(stdout) && blocksAfter(from, BETA)(stdout), 'both experiments to rerun');
  const after = out.slice(from);
  expect(after).toContain('changed: agentmark.config.mjs → rerunning all');
  expect(after).toContain('mentions  pass 0.0% ▼ 100.0 pts');
});
