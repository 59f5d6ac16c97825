import type { ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { echoResponder, useOpenAIServer } from '../helpers/openai-server.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { cliProject, type CliProject } from './cli-project.js';

const ROWS = 20;
const many = Array.from({ length: ROWS }, (_, i) => JSON.stringify({ input: { word: `w${i}` }, expected_output: `w${i}` })).join('\n');
const manyPrompt =
  '---\nname: many\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/many.jsonl\n  evals: [exact]\n---\n\n<User>{props.word}</User>\n';

const server = useOpenAIServer();
let project: CliProject;
let viewer: ViewServer | undefined;
beforeEach(async () => {
  project = await cliProject({ 'datasets/many.jsonl': `${many}\n`, 'prompts/many.prompt.mdx': manyPrompt });
});
afterEach(async () => {
  await viewer?.close();
  viewer = undefined;
  await project.cleanup();
});

async function linesWritten(): Promise<number> {
  const [id] = await project.runIds();
  if (id === undefined) return 0;
  return (await project.results(id).catch(() => [])).length;
}

function spawnRun(args: string[]): { done: ReturnType<CliProject['run']>; child: Promise<ChildProcess> } {
  let resolveChild: (child: ChildProcess) => void = () => {};
  const child = new Promise<ChildProcess>((resolve) => (resolveChild = resolve));
  const done = project.run(['run-experiment', 'prompts/many.prompt.mdx', ...args], { server, onSpawn: resolveChild });
  return { done, child };
}

describe('a run that did not finish never reports PASSED', () => {
  it('Ctrl-C after some rows (all passing): the summary says INTERRUPTED, the json report passed: false', async () => {
    server.setHandler((request) => ({ ...echoResponder(request), latencyMs: 60 }) as ReturnType<typeof echoResponder>);
    const run = spawnRun(['--concurrency', '2', '--format', 'json', '-o', 'report.json']);
    await expect.poll(linesWritten, { timeout: 10_000, interval: 10 }).toBeGreaterThanOrEqual(2);
    (await run.child).kill('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('\n  Result:   INTERRUPTED\n');
    expect(result.stderr).not.toContain('PASSED');
    const report = JSON.parse(await project.read('report.json')) as { summary: { passed: boolean; outcome: string; rows: number } };
    expect(report.summary).toMatchObject({ passed: false, outcome: 'interrupted' });
    expect(report.summary.rows).toBeLessThan(ROWS);
    const [id] = await project.runIds();
    const manifest = JSON.parse(await project.read(`.agentmark/runs/${id}/manifest.json`)) as { summary: { passed: boolean } };
    expect(manifest.summary.passed).toBe(false);
    // The same run as `runs show` reports it, in table and junit.
    const shown = await project.run(['runs', 'show', id ?? '']);
    expect(shown.stdout).toContain('\n  Result:   INTERRUPTED\n');
    const junit = await project.run(['runs', 'show', id ?? '', '--format', 'junit']);
    expect(junit.stdout).toContain(`<testcase name="run interrupted" classname="many" time="0.000">\n      <error message="the run did not finish (INTERRUPTED) after ${report.summary.rows} rows"/>`);
    const markdown = await project.run(['runs', 'show', id ?? '', '--format', 'markdown']);
    expect(markdown.stdout).toMatch(/^### ❌ /);
    expect(markdown.stdout).toContain('**INTERRUPTED**: the run did not finish.');
    // An interrupted run stored before summaries said so (passed: true, no outcome) shows the same.
    const path = `.agentmark/runs/${id}/manifest.json`;
    const old = JSON.parse(await project.read(path)) as { summary: Record<string, unknown> };
    old.summary.passed = true;
    delete old.summary.outcome;
    await project.write(path, JSON.stringify(old));
    const oldShown = await project.run(['runs', 'show', id ?? '', '--format', 'json']);
    expect(oldShown.code).toBe(1);
    expect(JSON.parse(oldShown.stdout)).toMatchObject({ summary: { passed: false, outcome: 'interrupted' } });
  });
});

describe('a run killed with -9', () => {
  it('shows as interrupted (not running) in `runs` and the viewer, with the command that resumes it', async () => {
    // Rows after the fourth hang: the run is mid-way when killed.
    let answered = 0;
    server.setHandler((request) => (answered++ < 4 ? echoResponder(request) : { hang: true }));
    const run = spawnRun(['--concurrency', '1', '--quiet']);
    await expect.poll(linesWritten, { timeout: 10_000, interval: 10 }).toBe(4);
    await expect.poll(() => server.inFlight, { timeout: 10_000, interval: 10 }).toBe(1);
    (await run.child).kill('SIGKILL');
    expect((await run.done).signal).toBe('SIGKILL');
    const [id] = await project.runIds();
    const stored = JSON.parse(await project.read(`.agentmark/runs/${id}/manifest.json`)) as { status: string };
    expect(stored.status).toBe('running');
    const resume = `agentmark run-experiment prompts/many.prompt.mdx --resume ${id}`;

    const listed = await project.run(['runs', '--format', 'json']);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ id, status: 'interrupted', resume }]);
    const table = await project.run(['runs']);
    expect(table.stdout).toContain(' interrupted ');
    expect(table.stdout).not.toContain('running');
    expect(table.stdout.endsWith(`\n${id} was interrupted; continue it with: ${resume}\n`)).toBe(true);

    viewer = await startViewServer({ projectRoot: project.dir, port: 0 });
    const runs = (await (await fetch(`${viewer.url}api/runs`)).json()) as { runs: Array<Record<string, unknown>> };
    expect(runs.runs).toMatchObject([{ id, status: 'interrupted', resume }]);
    const one = (await (await fetch(`${viewer.url}api/runs/${id}`)).json()) as { manifest: { status: string }; resume: string };
    expect(one.manifest.status).toBe('interrupted');
    expect(one.resume).toBe(resume);

    // And that command finishes it.
    server.setHandler(echoResponder);
    const resumed = await project.run(['run-experiment', 'prompts/many.prompt.mdx', '--resume', id ?? '', '--quiet'], { server });
    expect(resumed.code).toBe(0);
    expect(JSON.parse((await project.run(['runs', '--format', 'json'])).stdout)).toMatchObject([{ id, status: 'completed', rows: ROWS }]);
    // The row count and hash, carried over from the killed attempt's lines, match the file.
    const shown = await project.run(['runs', 'show', id ?? '', '--format', 'jsonl']);
    expect(shown.stderr).toBe('');
    expect(shown.stdout.trim().split('\n')).toHaveLength(ROWS);
  });
});
