import { afterEach, describe, expect, it } from 'vitest';
import { echoResponder, useOpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

const server = useOpenAIServer();
let project: CliProject;
afterEach(() => project.cleanup());

const runExperiment = (args: string[]) => project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', ...args], { server });
const onlyRun = async (): Promise<Array<Record<string, unknown>>> => {
  const [id] = await project.runIds();
  return project.results(id ?? 'none');
};

describe('model calls of run-experiment', () => {
  it('waits out a 429, honouring Retry-After, without spending a retry on it', async () => {
    project = await cliProject();
    const times: number[] = [];
    server.setHandler((request) => {
      times.push(Date.now());
      return times.length === 1 ? { status: 429, retryAfterMs: 400, message: 'slow down' } : echoResponder(request);
    });
    const result = await runExperiment(['--rows', '0', '--format', 'jsonl']);
    expect(result.code).toBe(0);
    expect(times).toHaveLength(2);
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(400);
    const [row] = await onlyRun();
    // A 429 is the provider's pace, not a failure of the row: --max-retries is for the others.
    expect(row).toMatchObject({ index: 0, output: 'alpha', retries: 0, cached: false });
    expect(JSON.parse(result.stdout)).toMatchObject({ index: 0, retries: 0 });
  });

  it('retries 500s up to --max-retries, then records an errored row and goes on', async () => {
    project = await cliProject();
    server.setHandler((request) => (request.lastUserText === 'alpha' ? { status: 500, message: 'boom', retryAfterMs: 10 } : echoResponder(request)));
    const result = await runExperiment(['--rows', '0-1', '--max-retries', '2', '--format', 'jsonl']);
    expect(result.code).toBe(1);
    expect(server.requests.filter((r) => JSON.stringify(r.body).includes('alpha'))).toHaveLength(3);
    const rows = (await onlyRun()).sort((a, b) => Number(a.index) - Number(b.index));
    expect(rows[0]).toMatchObject({ index: 0, evals: {}, cached: false });
    expect(String(rows[0]?.error)).toMatch(/boom/);
    expect(rows[1]).toMatchObject({ index: 1, output: 'beta' });
  });

  it('--timeout aborts the request itself, and the row is errored with the reason', async () => {
    project = await cliProject();
    server.setHandler(() => ({ hang: true }));
    const result = await runExperiment(['--rows', '0', '--timeout', '1', '--max-retries', '0', '--format', 'jsonl']);
    expect(result.code).toBe(1);
    // the server saw the client hang up: the request was aborted, not just abandoned
    await expect.poll(() => server.closedEarly, { timeout: 15_000 }).toBe(1);
    // ...after it had been held for most of the 1 s (timed at the server, so the process's
    // start-up does not count). The timer starts as the request goes out and the server stamps
    // it when it has read it: on a loaded machine that gap ate 135 ms of a 0.2 s timeout (the
    // server saw 65 ms held, 2 runs in 12), so the timeout is 1 s and the floor half of it.
    // That it was this timeout and not the 60 s default is what the row's error says.
    const [request] = server.requests;
    expect((request?.closedAt ?? 0) - (request?.receivedAt ?? Infinity)).toBeGreaterThanOrEqual(500);
    const [row] = await onlyRun();
    expect(row?.output).toBeUndefined();
    expect(row?.error).toBe('openai/gpt-4o-mini: timed out after 1s');
  });

  it('a rerun hits the cache: zero requests, rows marked cached, the summary counts only live calls', async () => {
    project = await cliProject();
    const first = await runExperiment([]);
    expect(first.code).toBe(1);
    expect(server.requests).toHaveLength(3);
    expect(first.stdout).toMatch(/Rows: {5}3 run, 0 errored, 0 cached, 0 pre-generated/);
    // formatDuration: `89ms` under a second, `1.2s` over it (a loaded machine can take either).
    expect(first.stdout).toMatch(/Latency: {2}p50 \d+(?:ms|\.\ds), p95 \d+(?:ms|\.\ds) \(live calls only\)/);
    expect(first.stdout).toContain('Tokens:   18 in / 3 out');

    const second = await runExperiment([]);
    expect(second.code).toBe(1);
    expect(server.requests).toHaveLength(3);
    expect(second.stdout).toMatch(/Rows: {5}3 run, 0 errored, 3 cached, 0 pre-generated/);
    expect(second.stdout).toContain('Latency:  n/a (no live calls)');
    expect(second.stdout).toContain('Tokens:   0 in / 0 out');
    expect(second.stdout).toContain('Cost:     n/a');
    const [, secondId] = await project.runIds();
    const rows = await project.results(secondId ?? 'none');
    expect(rows.map((row) => row.cached)).toEqual([true, true, true]);
    expect(rows.map((row) => row.output).sort()).toEqual(['alpha', 'beta', 'gamma']);

    const third = await runExperiment(['--no-cache']);
    expect(third.code).toBe(1);
    expect(server.requests).toHaveLength(6);
    expect(third.stdout).toMatch(/Rows: {5}3 run, 0 errored, 0 cached, 0 pre-generated/);
  });

  it('--repeat N makes each repeat its own cache entry', async () => {
    project = await cliProject();
    await runExperiment(['--rows', '0', '--repeat', '3']);
    expect(server.requests).toHaveLength(3);
    const again = await runExperiment(['--rows', '0', '--repeat', '3']);
    expect(server.requests).toHaveLength(3);
    expect(again.stdout).toMatch(/Rows: {5}3 run, 0 errored, 3 cached/);
    await runExperiment(['--rows', '0', '--repeat', '4']);
    expect(server.requests).toHaveLength(4);
  });

  it('--cache-only never calls a model: a miss is an errored row saying so', async () => {
    project = await cliProject();
    const result = await runExperiment(['--cache-only', '--rows', '0', '--format', 'jsonl']);
    expect(result.code).toBe(1);
    expect(server.requests).toHaveLength(0);
    const [row] = await onlyRun();
    expect(row).toMatchObject({
      index: 0,
      cached: false,
      error:
        'openai/gpt-4o-mini: no cached response for this request (--cache-only) ' +
        '(run once without --cache-only to record it; a changed prompt, setting or repeat count changes the key)',
      errorCode: 'MODEL_CACHE_MISS',
    });
  });

  it('--model overrides model_name, and its responses are cached apart', async () => {
    project = await cliProject();
    const result = await runExperiment(['--rows', '0', '--model', 'openai/gpt-4o', '--format', 'json']);
    expect(result.code).toBe(0);
    expect(server.requests.map((r) => r.body.model)).toEqual(['gpt-4o']);
    expect(JSON.parse(result.stdout)).toMatchObject({ run: { model: 'openai/gpt-4o' } });
    await runExperiment(['--rows', '0']);
    expect(server.requests.map((r) => r.body.model)).toEqual(['gpt-4o', 'gpt-4o-mini']);
  });

  it('a --model need not be in builtInModels (comparing models is the point); an unknown provider is refused before any call', async () => {
    project = await cliProject();
    const config = JSON.parse(await project.read('agentmark.json')) as Record<string, unknown>;
    await project.write('agentmark.json', JSON.stringify({ ...config, builtInModels: ['openai/gpt-4o-mini'] }));
    expect((await runExperiment(['--model', 'openai/gpt-4o', '--rows', '0'])).code).toBe(0);
    expect(server.requests.map((r) => r.body.model)).toEqual(['gpt-4o']);
    const result = await runExperiment(['--model', 'acme/gpt-4o']);
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: unknown provider "acme" in --model acme/gpt-4o (known: openai)\n  hint: register the provider under `providers` in agentmark.config.ts\n',
    });
    expect(server.requests).toHaveLength(1);
    expect(await project.runIds()).toHaveLength(1);
  });

  it('without a key or base URL the error says how to fix it', async () => {
    project = await cliProject();
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--rows', '0', '--format', 'jsonl']);
    expect(result.code).toBe(1);
    const [row] = await onlyRun();
    expect(row?.error).toBe(
      'no OpenAI API key for "openai/gpt-4o-mini" (set OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server), ' +
        'or run with the recorded cache (--cache-only))',
    );
  });

  it('with --no-cache and no key, the run does not start: one error, exit 2, no run folder', async () => {
    project = await cliProject();
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--no-cache']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      'error: no OpenAI API key for "openai/gpt-4o-mini"\n' +
        '  hint: set OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server), or run with the recorded cache (--cache-only)\n',
    );
    expect(await project.runIds()).toEqual([]);
  });
});
