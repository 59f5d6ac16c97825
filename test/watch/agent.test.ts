import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { ALPHA, BETA, READY, blocksAfter, count, edit, watchProject, type WatchProject } from './watch-process.js';

// Starts a CLI process and edits files; a loaded two-core machine needs room.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 30_000 });

let project: WatchProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

/** Calls the model through its context (the provider interface itself: no package to import) and answers with its text. */
const agentFile = `export const reply = async (ctx: any) => {
  const answer = await ctx.model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: \`Describe \${ctx.props.topic}.\` }] }], abortSignal: ctx.signal });
  return answer.content.map((part: { text?: string }) => part.text ?? '').join('');
};
`;

test("editing the file of a config's agent reruns the experiments", async () => {
  project = await watchProject();
  const { dir } = project;
  await writeFile(join(dir, 'agents.ts'), agentFile);
  await writeFile(
    join(dir, 'agentmark.config.ts'),
    "import { mentions } from './scorers/mentions.js';\nimport { reply } from './agents.js';\n\nexport default {\n  scorers: { mentions },\n  agents: { reply },\n};\n",
  );
  await edit(dir, 'prompts/beta.prompt.mdx', (text) => text.replace('test_settings:\n', 'test_settings:\n  agent: reply\n'));
  const watch = project.start();
  await watch.waitFor((out) => out.includes(READY), 'the ready line');
  expect(count(watch.stdout, BETA)).toBe(1);
  expect(watch.stdout).not.toContain('pass→fail');

  const from = watch.stdout.length;
  await edit(dir, 'agents.ts', (text) => text.replace("join('')", "join('').replace(ctx.props.topic, 'nothing')"));
  const out = await watch.waitFor((stdout) => blocksAfter(from, ALPHA)(stdout) && blocksAfter(from, BETA)(stdout), 'both experiments to rerun');
  const after = out.slice(from);
  expect(after).toContain('changed: agents.ts → rerunning all');
  // The agent's model calls come from the cache; only its answer changed.
  expect(after).toMatch(/2 rows · 2 cached/);
  expect(count(after, 'pass→fail')).toBe(2);
});
