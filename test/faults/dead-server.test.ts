/**
 * The model server dies mid-run: the circuit breaker stops the run within seconds (not one
 * retry budget per remaining row), and `--resume` finishes it once the server is back.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { URL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer, type OpenAIServerOptions } from '../helpers/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { KEY, faultProject, readManifest, readResults, runIds, type StoredRow } from './fault-project.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const keysOf = (rows: StoredRow[]): string[] => rows.map((row) => `${row.index}:${row.repeat}`);
const echo: OpenAIServerOptions['handler'] = (request) => ({ text: request.lastUserText, latencyMs: 20 });

describe('the server dies mid-run', () => {
  it('a 500-row run stops within seconds, exit 2 naming the base URL and the error; --resume completes it once the server is back', async () => {
    const project = await faultProject(500);
    cleanups.push(project.cleanup);
    // The server dies once it has answered 40 requests: mid-run, whatever the machine's speed.
    let dying: () => void = () => {};
    const fortyAnswered = new Promise<void>((resolve) => (dying = resolve));
    let answered = 0;
    let server: OpenAIServer = await startOpenAIServer({
      handler: (request) => {
        if (++answered === 40) dying();
        return { text: request.lastUserText };
      },
    });
    cleanups.push(() => server.close());
    const { dir } = project;
    const url = server.url;
    const port = Number(new URL(url).port);
    const env = { OPENAI_BASE_URL: url, OPENAI_API_KEY: KEY };
    const args = ['run-experiment', 'prompts/echo.prompt.mdx', '--concurrency', '4', '--no-cache', '--quiet', '--format', 'jsonl', '--timeout', '5'];

    let killed = false;
    const result = await runCli(args, {
      cwd: dir,
      env,
      timeoutMs: 120_000,
      onSpawn: () => {
        void fortyAnswered.then(async () => {
          await server.close();
          killed = true;
        });
      },
    });
    // Stopped by the breaker (exit 2, nothing recorded as errored, rows left to run), not after
    // one retry budget per remaining row (205 s once); how fast it stops is the bench's to time.
    expect(killed).toBe(true);
    expect(result.code).toBe(2);
    const [runId] = await runIds(dir);
    const id = runId ?? '';
    const { rows } = await readResults(dir, id);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(500);
    expect(result.stderr).toBe(
      `error: the model server at ${url} is unreachable: connect ECONNREFUSED 127.0.0.1:${port} (${/\((\d+) attempts/.exec(result.stderr)?.[1]} attempts in a row over ${/over ([\d.]+s)\)/.exec(result.stderr)?.[1]}); stopped with ${500 - rows.length} rows not run\n` +
        `  hint: start the server or fix the base URL (OPENAI_BASE_URL, or baseURL in the config), then continue with --resume ${id}\n`,
    );
    // Rows the dead server failed are not recorded as errored: they were not run.
    expect(rows.filter((row) => row.error !== undefined)).toEqual([]);
    const manifest = await readManifest(dir, id);
    // Stopped by the breaker: never PASSED, whatever the rows it ran said.
    expect(manifest).toMatchObject({ status: 'interrupted', summary: { rows: rows.length, errored: 0, passed: false, outcome: 'stopped' }, stopped: { reason: 'server-unreachable' } });

    expect(existsSync(join(dir, '.agentmark', 'runs', id, 'run.lock'))).toBe(false);

    server = await startOpenAIServer({ handler: echo, port });
    const resumed = await runCli([...args, '--resume', id], { cwd: dir, env, timeoutMs: 120_000 });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const after = (await readResults(dir, id)).rows;
    expect(after).toHaveLength(500);
    expect(new Set(keysOf(after))).toEqual(new Set(Array.from({ length: 500 }, (_, i) => `${i}:0`)));
    expect(after.every((row) => row.error === undefined)).toBe(true);
    const final = await readManifest(dir, id);
    expect(final).toMatchObject({ status: 'completed', summary: { rows: 500, errored: 0 } });
    expect(final.stopped).toBeUndefined();
  }, 180_000);

  it('a base URL where nothing listens: stopped within seconds, nothing recorded', async () => {
    const project = await faultProject(300);
    cleanups.push(project.cleanup);
    // A port that was just free: nothing listens there now.
    const gone = await startOpenAIServer();
    await gone.close();
    const result = await runCli(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--no-cache'], {
      cwd: project.dir,
      env: { OPENAI_BASE_URL: gone.url, OPENAI_API_KEY: KEY },
      timeoutMs: 120_000,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^error: the model server at ${gone.url.replace(/\./g, '\\.')} is unreachable: connect ECONNREFUSED .*; stopped with 300 rows not run\\n`));
    expect(result.stderr).not.toMatch(/^\s+at /m);
    const [id] = await runIds(project.dir);
    expect((await readResults(project.dir, id ?? '')).rows).toEqual([]);
  }, 60_000);
});
