import { unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { ALPHA, BETA, READY, blocksAfter, count, isAlive, until, watchProject, type WatchProject } from './watch-process.js';

// Each test starts a CLI process and edits files; a loaded two-core machine needs room.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 30_000 });

let project: WatchProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const GAMMA_PROMPT = `---
name: gamma
text_config:
  model_name: openai/gpt-4o-mini
test_settings:
  dataset: gamma.jsonl
  evals:
    - mentions
---
<User>Name {props.color}.</User>
`;

test('a prompt added to the watched folder runs; a deleted one is dropped; q exits 0', async () => {
  project = await watchProject();
  const { dir } = project;
  const watch = project.start();
  await watch.waitFor((out) => out.includes(READY), 'the ready line');

  let from = watch.stdout.length;
  await writeFile(join(dir, 'prompts/gamma.jsonl'), '{"input": {"color": "teal"}, "expected_output": "teal"}\n');
  await writeFile(join(dir, 'prompts/gamma.prompt.mdx'), GAMMA_PROMPT);
  let out = await watch.waitFor(blocksAfter(from, '── prompts/gamma.prompt.mdx · run '), 'the new prompt to run');
  expect(out.slice(from)).toMatch(/1 row · 0 cached/);

  // Its dataset is now watched like any other.
  from = watch.stdout.length;
  await writeFile(join(dir, 'prompts/gamma.jsonl'), '{"input": {"color": "teal"}, "expected_output": "blue"}\n');
  out = await watch.waitFor(blocksAfter(from, '── prompts/gamma.prompt.mdx · run '), 'the new prompt to rerun');
  expect(out.slice(from)).toContain('row 0 pass→fail');

  from = watch.stdout.length;
  await unlink(join(dir, 'prompts/beta.prompt.mdx'));
  await watch.waitFor((stdout) => stdout.slice(from).includes('prompts/beta.prompt.mdx was deleted; no longer watched'), 'beta to be dropped');
  // A change to its dataset no longer runs anything.
  await writeFile(join(dir, 'prompts/beta.jsonl'), '{"input": {"topic": "seas"}, "expected_output": "seas"}\n');
  watch.child.stdin.write('r\n');
  out = await watch.waitFor(blocksAfter(from, ALPHA), 'r to rerun what is left');

  watch.child.stdin.write('q\n');
  const exit = await watch.exited;
  expect(exit).toEqual({ code: 0, signal: null });
  expect(count(out.slice(from), BETA)).toBe(0);
  expect(isAlive(watch.child.pid)).toBe(false);
  expect(watch.stderr).toBe('');
});

test('Ctrl-C cancels running experiments, aborts their model calls and exits 130', async () => {
  project = await watchProject({ handler: () => ({ text: 'late', latencyMs: 20_000 }) });
  const { server } = project;
  const watch = project.start();
  await until(() => server.inFlight === 5, 'the first runs to be in flight');
  watch.child.kill('SIGINT');
  const exit = await watch.exited;
  expect(exit).toEqual({ code: 130, signal: null });
  // Not waited out: the server saw all five 20 s calls hung up on, none answered.
  await until(() => server.closedEarly === 5, 'the server to see every request aborted');
  expect(isAlive(watch.child.pid)).toBe(false);
  expect(watch.stdout).not.toContain(READY);
});

test('run-experiment --watch is the same session', async () => {
  project = await watchProject();
  const watch = project.start(['run-experiment', '--watch', 'prompts/alpha.prompt.mdx', '--concurrency', '2']);
  const out = await watch.waitFor((stdout) => stdout.includes(READY), 'the ready line');
  expect(out).toContain('watching 6 files for 1 experiment —');
  expect(count(out, ALPHA)).toBe(1);
  watch.child.kill('SIGINT');
  expect((await watch.exited).code).toBe(130);
});

test('watching the project root never reacts to the run store or the cache being written', async () => {
  project = await watchProject();
  const watch = project.start(['watch', '.']);
  await watch.waitFor((stdout) => stdout.includes(READY), 'the ready line');
  const from = watch.stdout.length;
  watch.child.stdin.write('r\n');
  await watch.waitFor((stdout) => blocksAfter(from, ALPHA)(stdout) && blocksAfter(from, BETA)(stdout), 'both to rerun');
  // A later edit is the barrier: a rerun caused by .agentmark/ writes would have shown by then.
  const mark = watch.stdout.length;
  await writeFile(join(project.dir, 'prompts/beta.jsonl'), '{"input": {"topic": "seas"}, "expected_output": "seas"}\n');
  const out = await watch.waitFor(blocksAfter(mark, BETA), 'beta to rerun');
  expect(count(out.slice(from), ALPHA)).toBe(1);
  expect(count(out.slice(from), BETA)).toBe(2);
  expect(count(out.slice(from), 'changed:')).toBe(1);
});
