import type { ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { echoResponder, useOpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

const ROWS = 20;
const many = Array.from({ length: ROWS }, (_, i) => JSON.stringify({ input: { word: `w${i}` }, expected_output: `w${i}` })).join('\n');
const manyPrompt =
  '---\nname: many\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/many.jsonl\n  evals: [exact]\n---\n\n<User>{props.word}</User>\n';

const server = useOpenAIServer();
let project: CliProject;
beforeEach(async () => {
  project = await cliProject({ 'datasets/many.jsonl': `${many}\n`, 'prompts/many.prompt.mdx': manyPrompt });
});
afterEach(() => project.cleanup());

/** Lines in the only run's results.jsonl so far (0 before the run exists). */
async function linesWritten(): Promise<number> {
  const [id] = await project.runIds();
  if (id === undefined) return 0;
  return (await project.results(id).catch(() => [])).length;
}

/** Whether the only run's folder still holds a run.lock. */
async function lockLeft(): Promise<boolean> {
  const [id] = await project.runIds();
  return project.read(`.agentmark/runs/${id}/run.lock`).then(
    () => true,
    () => false,
  );
}

function spawnRun(args: string[]): { done: ReturnType<CliProject['run']>; child: Promise<ChildProcess> } {
  let resolveChild: (child: ChildProcess) => void = () => {};
  const child = new Promise<ChildProcess>((resolve) => (resolveChild = resolve));
  const done = project.run(['run-experiment', 'prompts/many.prompt.mdx', '--quiet', ...args], { server, onSpawn: resolveChild });
  return { done, child };
}

describe('interrupting run-experiment', () => {
  it('--resume after kill -9: no row missing, none duplicated, the final report covers all rows', async () => {
    server.setHandler((request) => ({ ...echoResponder(request), latencyMs: 40 }) as ReturnType<typeof echoResponder>);
    const first = spawnRun(['--concurrency', '2']);
    await expect.poll(linesWritten, { timeout: 10_000, interval: 10 }).toBeGreaterThanOrEqual(4);
    (await first.child).kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    const [id] = await project.runIds();
    const before = await linesWritten();
    expect(before).toBeLessThan(ROWS);
    const requestsBefore = server.requests.length;
    const { since: lockSince } = JSON.parse(await project.read(`.agentmark/runs/${id}/run.lock`)) as { since: string };

    const resumed = await project.run(['run-experiment', 'prompts/many.prompt.mdx', '--quiet', '--resume', id ?? '', '--format', 'jsonl'], {
      server,
    });
    // The killed process's lock is taken over, and only that is said.
    expect(resumed.stderr).toBe(
      `warning: took over run ${id}: its lock was left by process ${(await first.child).pid} (started ${lockSince}), which is no longer running\n`,
    );
    expect(resumed.code).toBe(0);
    const reported = resumed.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { index: number });
    expect(reported.map((row) => row.index).sort((a, b) => a - b)).toEqual([...Array(ROWS).keys()]);
    const stored = await project.results(id ?? '');
    expect(stored.map((row) => row.index).sort((a, b) => Number(a) - Number(b))).toEqual([...Array(ROWS).keys()]);
    // only rows not yet written were run again (in-flight ones at the kill may have been cached)
    expect(server.requests.length - requestsBefore).toBeLessThanOrEqual(ROWS - before);
    expect(await project.runIds()).toEqual([id]);
    const manifest = JSON.parse(await project.read(`.agentmark/runs/${id}/manifest.json`)) as { status: string };
    expect(manifest.status).toBe('completed');
  });

  it('SIGINT stops dispatching, keeps finished rows, prints the summary and exits 130', async () => {
    server.setHandler((request) => ({ ...echoResponder(request), latencyMs: 60 }) as ReturnType<typeof echoResponder>);
    const run = spawnRun(['--concurrency', '2']);
    await expect.poll(linesWritten, { timeout: 10_000, interval: 10 }).toBeGreaterThanOrEqual(2);
    (await run.child).kill('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(130);
    const [id] = await project.runIds();
    const written = await linesWritten();
    expect(written).toBeGreaterThanOrEqual(2);
    expect(written).toBeLessThan(ROWS);
    expect(result.stdout).toContain('\nSUMMARY\n');
    expect(result.stdout).toContain(`  Rows:     ${written} run, 0 errored, 0 cached, 0 pre-generated\n`);
    expect(result.stdout).toContain(`  Run:      ${id} (.agentmark/runs/${id})\n`);
    // the exact command to continue: this one, without the prompt (the run knows it)
    expect(result.stderr).toBe(`interrupted: finished rows are saved; continue with: agentmark run-experiment --resume ${id} --quiet --concurrency 2\n`);
    const manifest = JSON.parse(await project.read(`.agentmark/runs/${id}/manifest.json`)) as { status: string };
    expect(manifest.status).toBe('interrupted');
    expect(await lockLeft()).toBe(false);

    // and the run can be finished later by that command: --resume alone
    const resumed = await project.run(['run-experiment', '--resume', id ?? '', '--quiet', '--concurrency', '2'], { server });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`  Rows:     ${ROWS} run, 0 errored,`);
  });

  it('a second SIGINT exits at once, without waiting for hanging calls', async () => {
    server.setHandler(() => ({ hang: true }));
    const run = spawnRun(['--concurrency', '2', '--max-retries', '0']);
    await expect.poll(() => server.inFlight, { timeout: 10_000, interval: 10 }).toBe(2);
    const child = await run.child;
    child.kill('SIGINT');
    // Keep pressing Ctrl-C: two signals that arrive while the process is busy count as one, and
    // a test that sent exactly two could see a single one on a loaded machine.
    const again = setInterval(() => child.kill('SIGINT'), 100);
    const result = await run.done.finally(() => clearInterval(again));
    expect(result.code).toBe(130);
    // The first SIGINT alone waits the 3 s grace period for the hanging calls, then writes the
    // report (see the next test). Exiting at once means no report at all, whatever the timing.
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('');
    // process.exit() still releases the run's lock
    expect(await lockLeft()).toBe(false);
  });

  it('one SIGINT with hanging calls aborts them after the grace period and exits 130', async () => {
    server.setHandler(() => ({ hang: true }));
    const run = spawnRun(['--concurrency', '2', '--max-retries', '0']);
    await expect.poll(() => server.inFlight, { timeout: 10_000, interval: 10 }).toBe(2);
    const started = Date.now();
    (await run.child).kill('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(130);
    // 3 s of grace, then the calls are aborted (the server sees them closed) and the process
    // ends. Only the floor is checked: timers never fire early and the signal arrives after
    // `started`, so load can only lengthen it. The per-call timeout (60 s) would have run into
    // runCli's kill (no exit code 130); how soon after the grace it exits is the bench's figure.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    expect(server.closedEarly).toBe(2);
    expect(await linesWritten()).toBe(0);
    expect(result.stdout).toContain('  Rows:     0 run, 0 errored, 0 cached, 0 pre-generated\n');
  });
});
