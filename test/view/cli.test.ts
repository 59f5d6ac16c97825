import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunsResponse } from '../../src/view/api-types.js';
import { runCli } from '../helpers/run-cli.js';
import { exampleProject } from './example-project.js';
import { row, writeRun } from './synthetic-run.js';
import { tempProject } from '../helpers/temp-project.js';

/** Resolves with the first match of `pattern` in what the child writes to `stream`. */
function waitFor(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    const source = child[stream];
    if (!source) return reject(new Error(`no ${stream}`));
    source.setEncoding('utf8');
    source.on('data', (chunk: string) => {
      text += chunk;
      const match = pattern.exec(text);
      if (match) resolve(match);
    });
    child.on('close', () => reject(new Error(`exited before ${String(pattern)}; ${stream}: ${text}`)));
  });
}

describe('agentmark view', () => {
  let project: { dir: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    project = await tempProject({ 'agentmark.json': '{}' });
    await writeRun(project.dir, { id: '20261130-100000.000-aaaaaa', evalNames: ['ok'], rows: [row(0, { evals: { ok: { passed: true } } })] });
  });
  afterAll(() => project.cleanup());

  it('serves the project\'s runs on 127.0.0.1, prints its URL, and stops with 0 on Ctrl-C', async () => {
    let child: ChildProcess | undefined;
    const done = runCli(['view', '--port', '0'], { cwd: project.dir, onSpawn: (c) => (child = c) });
    const [url] = await waitFor(child as ChildProcess, 'stdout', /http:\/\/127\.0\.0\.1:\d+\//);
    const { runs } = (await (await fetch(`${url}api/runs`)).json()) as RunsResponse;
    expect(runs.map((r) => r.id)).toEqual(['20261130-100000.000-aaaaaa']);
    child?.kill('SIGINT');
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('warns when --host exposes it beyond this machine', async () => {
    let child: ChildProcess | undefined;
    const done = runCli(['view', '--port', '0', '--host', '0.0.0.0'], { cwd: project.dir, onSpawn: (c) => (child = c) });
    await waitFor(child as ChildProcess, 'stdout', /http:\/\/127\.0\.0\.1:\d+\//);
    child?.kill('SIGINT');
    const result = await done;
    expect(result.stderr).toMatch(/^warning: the viewer listens on 0\.0\.0\.0: anyone who can reach this machine on port \d+ can read your runs \(inputs, outputs, reasons\)\n$/);
  });

  it('a --host that does not resolve, or is no address of this machine, is a usage error without a stack', async () => {
    const unknown = await runCli(['view', '--port', '0', '--host', 'no-such-host.invalid'], { cwd: project.dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'error: cannot serve the viewer on no-such-host.invalid: no such host (it does not resolve to an address)\n  hint: use an address of this machine, e.g. 127.0.0.1 (the default) or 0.0.0.0 for every interface\n',
    );
    // TEST-NET-3 (RFC 5737): never an address of this machine.
    const foreign = await runCli(['view', '--port', '0', '--host', '203.0.113.7'], { cwd: project.dir });
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toBe(
      'error: cannot serve the viewer on 203.0.113.7: not an address of this machine\n  hint: use an address of this machine, e.g. 127.0.0.1 (the default) or 0.0.0.0 for every interface\n',
    );
  });

  it('puts --reviewer in the page with a write token; --read-only gives the page none', async () => {
    const shell = async (args: string[]): Promise<string> => {
      let child: ChildProcess | undefined;
      const done = runCli(['view', '--port', '0', ...args], { cwd: project.dir, onSpawn: (c) => (child = c) });
      const [url] = await waitFor(child as ChildProcess, 'stdout', /http:\/\/127\.0\.0\.1:\d+\//);
      const text = await (await fetch(url)).text();
      child?.kill('SIGINT');
      expect((await done).code).toBe(0);
      return text;
    };
    expect(await shell(['--reviewer', 'zed'])).toMatch(/<meta name="agentmark-session" content="\{&quot;token&quot;:&quot;[\w-]{32}&quot;,&quot;reviewer&quot;:&quot;zed&quot;\}">/);
    expect(await shell(['--read-only', '--reviewer', 'zed'])).not.toContain('<meta name="agentmark-session"');
  });

  it('takes at most one run and checks its port', async () => {
    expect((await runCli(['view', 'latest', 'latest'], { cwd: project.dir })).code).toBe(2);
    expect((await runCli(['view', 'no-such-run'], { cwd: project.dir })).code).toBe(2);
    const bad = await runCli(['view', '--port', '70000'], { cwd: project.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--port must be at most 65535, got 70000/);
  });
});

describe('--view and --format html on run-experiment', () => {
  let project: { dir: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    project = await exampleProject();
  });
  afterAll(() => project.cleanup());

  it('--view serves the run beside it and stays until Ctrl-C, exiting with the run\'s code', async () => {
    let child: ChildProcess | undefined;
    const done = runCli(['run-experiment', 'prompts/classify-intent.prompt.mdx', '--view', '--view-port', '0', '-q', '--format', 'jsonl'], {
      cwd: project.dir,
      env: {},
      timeoutMs: 60_000,
      onSpawn: (c) => (child = c),
    });
    const [, url] = await waitFor(child as ChildProcess, 'stderr', /run finished; the viewer stays at (http:\/\/127\.0\.0\.1:\d+\/) until Ctrl-C/);
    const { runs } = (await (await fetch(`${url}api/runs`)).json()) as RunsResponse;
    expect(runs.map((r) => [r.promptName, r.status, r.rows])).toEqual([['classify-intent', 'completed', 12]]);
    child?.kill('SIGINT');
    expect((await done).code).toBe(1);
  });

  it('--format html is one run\'s page: several prompts are a usage error', async () => {
    const result = await runCli(['run-experiment', 'prompts', '--format', 'html'], { cwd: project.dir, env: {} });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--format html writes the report of one run: give one prompt/);
  });
});
