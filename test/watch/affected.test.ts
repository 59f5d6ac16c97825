import { afterEach, expect, test, vi } from 'vitest';
import { ALPHA, BETA, READY, blocksAfter, count, edit, watchProject, type WatchProject } from './watch-process.js';

// Each test starts a CLI process and edits files; a loaded two-core machine needs room.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 30_000 });

let project: WatchProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

test('a prompt, component or dataset change reruns only the experiments that read it', async () => {
  project = await watchProject();
  const { dir } = project;
  const watch = project.start();
  await watch.waitFor((out) => out.includes(READY), 'the ready line');
  expect(count(watch.stdout, ALPHA)).toBe(1);
  expect(count(watch.stdout, BETA)).toBe(1);
  expect(watch.stdout).toMatch(/watching 8 files for 2 experiments — r rerun all · f rerun failed · q quit/);

  let from = watch.stdout.length;
  await edit(dir, 'prompts/alpha.prompt.mdx', (text) => text.replace('Greet', 'Welcome'));
  await watch.waitFor(blocksAfter(from, ALPHA), 'alpha to rerun after its prompt changed');
  expect(watch.stdout.slice(from)).toContain('changed: prompts/alpha.prompt.mdx → rerunning prompts/alpha.prompt.mdx\n');

  from = watch.stdout.length;
  await edit(dir, 'prompts/components/signature.mdx', () => 'Sign as the Alpha team.\n');
  await watch.waitFor(blocksAfter(from, ALPHA), 'alpha to rerun after its component changed');
  expect(watch.stdout.slice(from)).toContain('changed: prompts/components/signature.mdx → rerunning prompts/alpha.prompt.mdx\n');

  from = watch.stdout.length;
  await edit(dir, 'prompts/beta.jsonl', (text) => `${text}{"input": {"topic": "lakes"}, "expected_output": "lakes"}\n`);
  const out = await watch.waitFor(blocksAfter(from, BETA), 'beta to rerun after its dataset changed');
  expect(out.slice(from)).toContain('changed: prompts/beta.jsonl → rerunning prompts/beta.prompt.mdx\n');
  // Two unchanged rows come from the cache; only the new one calls the model.
  expect(out.slice(from)).toMatch(/3 rows · 2 cached · 0 errored/);

  // By now any stray rerun from the earlier edits would have printed its block.
  expect(count(out, ALPHA)).toBe(3);
  expect(count(out, BETA)).toBe(2);
});

test('a scorer change in the config reruns every experiment without a single model call', async () => {
  project = await watchProject();
  const watch = project.start();
  await watch.waitFor((out) => out.includes(READY), 'the ready line');
  const requests = project.server.requests.length;

  const from = watch.stdout.length;
  await edit(project.dir, 'scorers/mentions.ts', (text) => text.replace('passed: String', 'passed: !String'));
  const out = await watch.waitFor(
    (stdout) => blocksAfter(from, ALPHA)(stdout) && blocksAfter(from, BETA)(stdout),
    'both experiments to rerun',
  );
  expect(project.server.requests.length).toBe(requests);
  const after = out.slice(from);
  expect(after).toContain('changed: scorers/mentions.ts → rerunning all');
  expect(after).toMatch(/3 rows · 3 cached/);
  expect(after).toMatch(/2 rows · 2 cached/);
  // Every row flipped; the pass rate shows its drop since the previous run.
  expect(after).toContain('mentions  pass 0.0% ▼ 100.0 pts');
  expect(after).toMatch(/row 0 pass→fail {2}input \{"name":"Ada"\} {2}output .*Ada/);
  expect(count(after, 'pass→fail')).toBe(5);
});

test('an agentmark.json change reruns every experiment', async () => {
  project = await watchProject();
  const watch = project.start();
  await watch.waitFor((out) => out.includes(READY), 'the ready line');

  const from = watch.stdout.length;
  await edit(project.dir, 'agentmark.json', (text) => text.replace('mentions the expected text', 'contains the expected text'));
  const out = await watch.waitFor(
    (stdout) => blocksAfter(from, ALPHA)(stdout) && blocksAfter(from, BETA)(stdout),
    'both experiments to rerun',
  );
  expect(out.slice(from)).toContain('changed: agentmark.json → rerunning all');
});

test('r reruns all, f reruns only the failed rows', async () => {
  project = await watchProject();
  const watch = project.start();
  await watch.waitFor((out) => out.includes(READY), 'the ready line');

  let from = watch.stdout.length;
  await edit(project.dir, 'prompts/beta.jsonl', (text) => text.replace('"expected_output": "mountains"', '"expected_output": "hills"'));
  let out = await watch.waitFor(blocksAfter(from, BETA), 'beta to rerun');
  expect(out.slice(from)).toMatch(/mentions {2}pass 50\.0% ▼ 50\.0 pts/);
  expect(out.slice(from)).toMatch(/row 1 pass→fail {2}input \{"topic":"mountains"\}/);

  from = watch.stdout.length;
  const requests = project.server.requests.length;
  watch.child.stdin.write('f\n');
  out = await watch.waitFor(blocksAfter(from, BETA), 'beta to rerun its failed row');
  // Live, not from the cache: the cached answer is the one that failed.
  expect(out.slice(from)).toMatch(/1 row \(failed rows only; ▲\/▼ vs the same rows before\) · 0 cached/);
  expect(project.server.requests.slice(requests).map((request) => JSON.stringify(request.body).includes('mountains'))).toEqual([true]);
  expect(out.slice(from)).toMatch(/\n {2}mentions {2}pass 0\.0% {3}mean 0\.000\n/);
  expect(count(out.slice(from), ALPHA)).toBe(0);

  from = watch.stdout.length;
  watch.child.stdin.write('r\n');
  out = await watch.waitFor((stdout) => blocksAfter(from, ALPHA)(stdout) && blocksAfter(from, BETA)(stdout), 'both to rerun');
  expect(out.slice(from)).toMatch(/3 rows · 3 cached/);
});
