import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

// Scorers that never return, chosen per row so the other rows show the run going on:
// `loop` spins in synchronous code (no timer can fire on its thread), `stuck` awaits forever.
// Before it spins, `loop` writes spinning-<word> in the project: the event a test waits for.
const config = `import { writeFileSync } from 'node:fs';
export default {
  scorers: {
    loop: ({ input }: { input: { word: string } }) => {
      if (input.word.startsWith('loop')) {
        writeFileSync('spinning-' + input.word, '');
        for (;;) {}
      }
      return { passed: true };
    },
    stuck: ({ input }: { input: { word: string } }) =>
      input.word.startsWith('stuck') ? new Promise(() => {}) : { passed: true },
  },
};
`;
const scores = {
  exact: { type: 'boolean', scorer: 'exact_match' },
  loop: { type: 'boolean' },
  stuck: { type: 'boolean' },
  rx: { type: 'boolean', scorer: 'regex', options: { pattern: '(a+)+$' } },
};
const prompt = (evals: string[]): string =>
  `---\nname: h\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/h.jsonl\n  evals: [${evals.join(', ')}]\n---\n\n<User>{props.word}</User>\n`;
const rows = (words: string[], withOutput = false): string =>
  words.map((word) => JSON.stringify({ input: { word }, expected_output: word, ...(withOutput ? { output: word } : {}) })).join('\n') + '\n';

const server = useOpenAIServer();
let project: CliProject;
afterEach(() => project.cleanup());

async function setUp(evals: string[], words: string[], withOutput = false): Promise<void> {
  project = await cliProject({ 'agentmark.config.ts': config, 'prompts/h.prompt.mdx': prompt(evals), 'datasets/h.jsonl': rows(words, withOutput) });
  const json = JSON.parse(await project.read('agentmark.json')) as Record<string, unknown>;
  await project.write('agentmark.json', JSON.stringify({ ...json, scores }));
}

type Row = { index: number; evals: Record<string, { passed?: boolean; error?: string }> };
const parseRows = (stdout: string): Row[] =>
  stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Row).sort((a, b) => a.index - b.index);

async function linesWritten(): Promise<number> {
  const [id] = await project.runIds();
  return id === undefined ? 0 : (await project.results(id).catch(() => [])).length;
}

/** Whether the `loop` scorer has started spinning on this row (it writes the file first). */
const spinning = (word: string): Promise<boolean> => project.read(`spinning-${word}`).then(() => true, () => false);

function spawn(command: string, args: string[]): { done: ReturnType<CliProject['run']>; child: Promise<ChildProcess> } {
  let resolveChild: (child: ChildProcess) => void = () => {};
  const child = new Promise<ChildProcess>((resolve) => (resolveChild = resolve));
  const done = project.run([command, 'prompts/h.prompt.mdx', '--quiet', ...args], { server, onSpawn: resolveChild, timeoutMs: 50_000 });
  return { done, child };
}

// Each test starts the CLI once or twice and waits out timeouts and a grace period: on a loaded
// machine that is more than vitest's default 20 s.
describe('no scorer can hang a run', { timeout: 60_000 }, () => {
  it('a catastrophic regex ((a+)+$ on 40 a\'s and "!") answers at once, with the right verdicts', async () => {
    await setUp(['rx'], [`${'a'.repeat(40)}!`, 'aaaa']);
    // a backtracking regex would never finish: runCli kills the run at 50 s and the code is null
    const result = await project.run(['run-experiment', 'prompts/h.prompt.mdx', '--quiet', '--format', 'jsonl'], { server, timeoutMs: 50_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(parseRows(result.stdout).map((row) => row.evals.rx)).toEqual([
      { score: 0, passed: false, label: null, reason: 'output does not match /(a+)+$/', normalized: 0, error: null, skipped: false },
      { score: 1, passed: true, label: null, reason: 'output matches /(a+)+$/', normalized: 1, error: null, skipped: false },
    ]);
  });

  it('a user scorer looping in sync code and one awaiting forever are cut at --eval-timeout; other rows pass', async () => {
    await setUp(['exact', 'loop', 'stuck'], ['w0', 'loop1', 'stuck2', 'w3', 'w4']);
    const result = await project.run(['run-experiment', 'prompts/h.prompt.mdx', '--quiet', '--format', 'jsonl', '--eval-timeout', '2', '--concurrency', '5'], {
      server,
      timeoutMs: 50_000,
    });
    // without the cut-off the run never ends: runCli kills it at 50 s and the code is null
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const outcome = parseRows(result.stdout).map((row) => [row.index, row.evals.exact?.passed, row.evals.loop?.error ?? row.evals.loop?.passed, row.evals.stuck?.error ?? row.evals.stuck?.passed]);
    expect(outcome).toEqual([
      [0, true, true, true],
      [1, true, 'timed out after 2s', true],
      [2, true, true, 'timed out after 2s'],
      [3, true, true, true],
      [4, true, true, true],
    ]);
  });

  it('score gives the same guarantee', async () => {
    await setUp(['loop', 'stuck'], ['loop0', 'w1', 'stuck2'], true);
    const result = await project.run(['score', 'prompts/h.prompt.mdx', '--quiet', '--format', 'jsonl', '--eval-timeout', '1'], { server, timeoutMs: 50_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(parseRows(result.stdout).map((row) => [row.evals.loop?.error ?? row.evals.loop?.passed, row.evals.stuck?.error ?? row.evals.stuck?.passed])).toEqual([
      ['timed out after 1s', true],
      [true, true],
      [true, 'timed out after 1s'],
    ]);
    expect(server.requests).toHaveLength(0);
  });

  for (const [command, signal] of [['run-experiment', 'SIGINT'], ['score', 'SIGINT'], ['run-experiment', 'SIGTERM']] as const) {
    it(`${command}: one ${signal} while a scorer loops forever exits 130 after the grace period, finished rows written`, async () => {
      await setUp(['loop'], ['w0', 'w1', 'w2', 'loop3', 'w4'], command === 'score');
      const run = spawn(command, ['--concurrency', '1', '--eval-timeout', '60']);
      await expect.poll(linesWritten, { timeout: 20_000, interval: 20 }).toBe(3);
      await expect.poll(() => spinning('loop3'), { timeout: 20_000, interval: 20 }).toBe(true);
      (await run.child).kill(signal);
      const result = await run.done;
      // 3 s of grace for rows in flight, then the stuck worker is terminated; were it not, the
      // run would never end (runCli kills it at 50 s and the code is null)
      expect(result.code).toBe(130);
      expect(await linesWritten()).toBe(3);
      const [id] = await project.runIds();
      const rest = command === 'score' ? 'prompts/h.prompt.mdx ' : '';
      expect(result.stderr).toBe(`interrupted: finished rows are saved; continue with: agentmark ${command} --resume ${id} ${rest}--quiet --concurrency 1 --eval-timeout 60\n`);
      const manifest = JSON.parse(await project.read(`.agentmark/runs/${id}/manifest.json`)) as { status: string };
      expect(manifest.status).toBe('interrupted');
    });
  }

  it('a second SIGINT exits at once while a scorer loops forever', async () => {
    await setUp(['loop'], ['loop0', 'w1']);
    const run = spawn('run-experiment', ['--concurrency', '1', '--eval-timeout', '60']);
    await expect.poll(() => spinning('loop0'), { timeout: 20_000, interval: 20 }).toBe(true);
    const child = await run.child;
    child.kill('SIGINT');
    // Keep pressing Ctrl-C: two signals that arrive close together can count as one, and the
    // first one prints nothing to wait for (see test/cli/interrupt.test.ts).
    const again = setInterval(() => child.kill('SIGINT'), 100);
    const result = await run.done.finally(() => clearInterval(again));
    // At once: before the first SIGINT's 3 s of grace end, so the run never got to say how to
    // continue and is still marked running. How fast is measured by the bench (`--only bounds`).
    expect(result.code).toBe(130);
    expect(result.stderr).toBe('');
    const [id] = await project.runIds();
    const manifest = JSON.parse(await project.read(`.agentmark/runs/${id}/manifest.json`)) as { status: string };
    expect(manifest.status).toBe('running');
  });
});
