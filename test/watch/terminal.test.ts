import { afterEach, expect, test, vi } from 'vitest';
import { runInTerminal, type TerminalProcess } from '../helpers/run-in-terminal.js';
import { ALPHA, BETA, READY, blocksAfter, edit, until, watchProject, type WatchProject } from './watch-process.js';

// Each test starts a CLI process and edits files; a loaded two-core machine needs room.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 30_000 });

let project: WatchProject | undefined;
let terminal: TerminalProcess | undefined;
afterEach(async () => {
  if (terminal && terminal.child.exitCode === null) terminal.child.kill('SIGKILL');
  await terminal?.exited;
  terminal = undefined;
  await project?.cleanup();
  project = undefined;
});

/** Home, clear the screen, clear the scrollback: how every redraw begins. */
const CLEAR = '\x1b[H\x1b[2J\x1b[3J';
const HEADER = 'agentmark watch · watching 8 files for 2 experiments — r rerun all · f rerun failed · q quit\r\n';

const FOOTER = '\r\nwatching 8 files for 2 experiments — r rerun all · f rerun failed · q quit\r\n';
const screens = (output: string): string[] => output.split(CLEAR).slice(1);
const lastScreen = (output: string): string => screens(output).at(-1) ?? '';
/** The last screen, once it is whole, nothing is running and it shows every one of `texts`. */
const settledWith =
  (...texts: string[]) =>
  (output: string): boolean => {
    const screen = lastScreen(output);
    // A whole screen ends with its status line (the footer, or what a key started) after a blank
    // line; a screen that ends inside a block may still be arriving.
    const footer = /\r\n\r\n[a-z][^\r\n]*\r\n$/.test(screen);
    return screen.startsWith(HEADER) && footer && !screen.includes('running…') && texts.every((text) => screen.includes(text));
  };
const runIdOf = (screen: string, label: string): string | undefined =>
  new RegExp(`── ${label} · run (\\S+)\\r\\n`).exec(screen)?.[1];
const stable = (screen: string): string =>
  screen.replace(/\d{8}-\d{6}\.\d{3}-[0-9a-f]{6}/g, '<run-id>').replace(/ · (\d+ms|\d+\.\ds|\d+m \d\ds)\r\n/g, ' · [...]\r\n');

test('on a terminal the whole screen is redrawn in place; r reruns all, f the failed rows, q quits, each a single key', async () => {
  project = await watchProject();
  const { dir, server } = project;
  terminal = runInTerminal(['watch', 'prompts'], { cwd: dir, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' } });
  let out = await terminal.waitFor(settledWith('── prompts/beta.prompt.mdx · run '), 'the first runs to settle');
  // Nothing but whole screens: each starts by clearing, then the header, then every experiment.
  expect(out.startsWith(CLEAR)).toBe(true);
  for (const screen of screens(out)) expect(screen).toMatch(/^agentmark watch · \S.* — r rerun all · f rerun failed · q quit\r\n\r\n── prompts\/alpha\.prompt\.mdx · /);
  expect(stable(lastScreen(out))).toBe(
    HEADER +
      '\r\n── prompts/alpha.prompt.mdx · run <run-id>\r\n' +
      '  openai/gpt-4o-mini · 3 rows · 0 cached · 0 errored · [...]\r\n' +
      '  mentions  pass 100.0%   mean 1.000\r\n' +
      '\r\n── prompts/beta.prompt.mdx · run <run-id>\r\n' +
      '  openai/gpt-4o-mini · 2 rows · 0 cached · 0 errored · [...]\r\n' +
      '  mentions  pass 100.0%   mean 1.000\r\n' +
      '\r\nwatching 8 files for 2 experiments — r rerun all · f rerun failed · q quit\r\n',
  );
  expect(server.requests).toHaveLength(5);

  // One key press, no Enter: the terminal is in raw mode.
  terminal.type('r');
  out = await terminal.waitFor(settledWith('3 rows · 3 cached', '2 rows · 2 cached', FOOTER), 'r to rerun both from the cache');
  expect(server.requests).toHaveLength(5);
  // The footer said what was happening while it happened, and is the watching line again after.
  expect(screens(out).some((screen) => screen.endsWith('\r\nrerunning all\r\n'))).toBe(true);
  expect(lastScreen(out).endsWith(FOOTER)).toBe(true);

  await edit(dir, 'prompts/beta.jsonl', (text) => text.replace('"expected_output": "mountains"', '"expected_output": "hills"'));
  out = await terminal.waitFor(settledWith('row 1 pass→fail'), 'beta to rerun after the edit');
  const alphaRun = runIdOf(lastScreen(out), 'prompts/alpha.prompt.mdx');
  expect(lastScreen(out)).toMatch(/mentions {2}pass 50\.0% ▼ 50\.0 pts/);

  terminal.type('f');
  out = await terminal.waitFor(settledWith('1 row (failed rows only; ▲/▼ vs the same rows before) · 0 cached', FOOTER), 'f to rerun the failed row live');
  expect(lastScreen(out)).not.toContain('rerunning failed rows of');
  expect(server.requests).toHaveLength(6);
  expect(runIdOf(lastScreen(out), 'prompts/alpha.prompt.mdx')).toBe(alphaRun);
  // Row 1 failed before and fails again: no change against the same row (was `pass 0.0% ▼ -50.0%`).
  expect(lastScreen(out)).toContain('(failed rows only; ▲/▼ vs the same rows before) · 0 cached · 0 errored · ');
  expect(lastScreen(out)).toMatch(/\r\n {2}mentions {2}pass 0\.0% {3}mean 0\.000\r\n/);

  terminal.type('q');
  expect(await terminal.exited).toEqual({ code: 0, signal: null });
});

test('when stdout is not a terminal it prints plain blocks and never clears the screen', async () => {
  project = await watchProject();
  const watch = project.start();
  await watch.waitFor((out) => out.includes(READY), 'the ready line');
  let from = watch.stdout.length;
  watch.child.stdin.write('r\n');
  await watch.waitFor((out) => blocksAfter(from, ALPHA)(out) && blocksAfter(from, BETA)(out), 'r to rerun both');
  from = watch.stdout.length;
  await edit(project.dir, 'prompts/beta.jsonl', (text) => text.replace('"expected_output": "mountains"', '"expected_output": "hills"'));
  await watch.waitFor(blocksAfter(from, BETA), 'beta to rerun after the edit');
  watch.child.stdin.write('q\n');
  expect(await watch.exited).toEqual({ code: 0, signal: null });
  // No escape sequence of any kind: no clear, no cursor movement, no colour.
  expect(watch.stdout).not.toContain('\x1b');
  expect(watch.stdout).not.toContain('\r');
  expect(watch.stdout).not.toContain('running…');
  expect(watch.stderr).toBe('');
});

test('q pressed before the first runs end quits at once, saying what it cancelled', async () => {
  project = await watchProject({ handler: () => ({ text: 'late', latencyMs: 20_000 }) });
  const { dir, server } = project;
  terminal = runInTerminal(['watch', 'prompts'], { cwd: dir, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' } });
  await until(() => server.inFlight === 5, 'the first runs to be in flight');
  terminal.type('q');
  expect(await terminal.exited).toEqual({ code: 0, signal: null });
  // At once, not after the 20 s calls: the server saw all five hung up on.
  await until(() => server.closedEarly === 5, 'the server to see every request aborted');
  const screen = stable(lastScreen(terminal.output));
  expect(screen).toMatch(/\r\nquit \(q\) before the first runs finished; cancelled: prompts\/(alpha|beta)\.prompt\.mdx \(run <run-id>\), prompts\/(alpha|beta)\.prompt\.mdx \(run <run-id>\), kept as interrupted in the run store\r\n$/);
  expect(screen).toContain('prompts/alpha.prompt.mdx');
  expect(screen).toContain('prompts/beta.prompt.mdx');
  await until(() => server.closedEarly === 5, 'the server to see every request aborted');
});
