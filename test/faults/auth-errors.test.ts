/**
 * A key the provider refuses (401, 403) is a set-up error like a dead server: the first refusal
 * stops the run (exit 2) instead of sending every row to be refused, and says which variable
 * holds the key and which `.env` files it is read from.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../helpers/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { KEY, faultProject, readManifest, readResults, runIds } from './fault-project.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ARGS = ['run-experiment', 'prompts/echo.prompt.mdx', '--concurrency', '4', '--no-cache', '--format', 'jsonl', '-o', 'report.jsonl'];

describe('the provider refuses the key', () => {
  for (const status of [401, 403]) {
    it(`${status}: the first refusal stops the run, exit 2, naming the key variable and the .env files; rows not run are left to --resume`, async () => {
      const project = await faultProject(50);
      cleanups.push(project.cleanup);
      const server = await startOpenAIServer({ handler: () => ({ status, message: 'Incorrect API key provided' }) });
      cleanups.push(() => server.close());
      const result = await runCli(ARGS, { cwd: project.dir, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY }, timeoutMs: 60_000 });

      expect(result.code).toBe(2);
      // Only the calls already in flight when the first answer came back: at most --concurrency.
      expect(server.requests.length).toBeGreaterThan(0);
      expect(server.requests.length).toBeLessThanOrEqual(4);
      const [id = ''] = await runIds(project.dir);
      expect(result.stderr).toContain(
        `error: the model server refused the API key: openai/gpt-4o-mini: HTTP ${status} not authorised: Incorrect API key provided; stopped with 50 rows not run\n` +
          `  hint: check OPENAI_API_KEY (read from the environment, then from .env and .env.local in ${project.dir}), then continue with --resume ${id}\n`,
      );
      expect(result.stderr).not.toContain(KEY);
      // No ✔ for a run that scored nothing.
      expect(result.stdout).not.toContain('✔');
      expect(result.stderr).not.toContain('✔');
      // Refused rows were not run: nothing recorded, the run says why it stopped.
      expect((await readResults(project.dir, id)).rows).toEqual([]);
      expect(await readManifest(project.dir, id)).toMatchObject({ status: 'interrupted', stopped: { reason: 'auth-failed' } });
    }, 90_000);
  }

  it('a custom base URL needs no key; the provider\'s own endpoint without one is exit 2 before any call', async () => {
    const project = await faultProject(3);
    cleanups.push(project.cleanup);
    const server = await startOpenAIServer({ handler: (request) => ({ text: request.lastUserText }) });
    cleanups.push(() => server.close());
    const local = await runCli([...ARGS, '--quiet'], { cwd: project.dir, env: { OPENAI_BASE_URL: server.url }, timeoutMs: 60_000 });
    expect(local.stderr).toBe('');
    expect(local.code).toBe(0);
    expect(server.requests).toHaveLength(3);

    const none = await runCli([...ARGS, '--quiet'], { cwd: project.dir, env: {}, timeoutMs: 60_000 });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      'error: no OpenAI API key for "openai/gpt-4o-mini"\n' +
        '  hint: set OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server), or run with the recorded cache (--cache-only)\n',
    );
    expect(await runIds(project.dir)).toHaveLength(1);
  }, 90_000);
});
