/**
 * `runs prune` never deletes a run that is being written, whatever its age: a `--batch` run may
 * poll for more than a day. Only the lock's holder being alive counts, not the start time.
 */
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { useOpenAIServer } from '../helpers/openai-server.js';

const server = useOpenAIServer();
let project: CliProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

describe('runs prune and a live run', () => {
  it('a run whose lock has a live holder, started two days ago, is kept by --older-than 1d and --keep 0; the run then finishes with every row', async () => {
    project = await cliProject();
    const dir = project.dir;
    // The run's first request is held until the prune is done: the run is live all that time.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.setHandler(async (request) => {
      await held;
      return { text: request.lastUserText };
    });
    const running = project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--concurrency', '1', '-q'], { server, timeoutMs: 60_000 });
    await expect.poll(() => server.requests.length, { timeout: 30_000, interval: 20 }).toBe(1);
    const [runId] = await project.runIds();
    const manifestPath = join(dir, '.agentmark', 'runs', runId as string, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { status: string; startedAt: string };
    expect(manifest.status).toBe('running');
    // As a --batch run still polling long after it started shows it (any start older than 1d).
    await writeFile(manifestPath, JSON.stringify({ ...manifest, startedAt: '2020-01-01T00:00:00.000Z' }));

    const byAge = await project.run(['runs', 'prune', '--older-than', '1d']);
    expect(byAge).toMatchObject({ code: 0, stdout: '0 runs deleted\n', stderr: '' });
    const byCount = await project.run(['runs', 'prune', '--keep', '0']);
    expect(byCount).toMatchObject({ code: 0, stdout: '0 runs deleted\n', stderr: '' });
    await access(manifestPath);

    release();
    const done = await running;
    // gamma's expected output is GAMMA: exact fails on it
    expect(done.code).toBe(1);
    expect(done.stderr).toBe('');
    expect((await project.results(runId as string)).map((row) => row.output).sort()).toEqual(['alpha', 'beta', 'gamma']);

    // Finished, it is an old run like any other.
    const after = await project.run(['runs', 'prune', '--keep', '0']);
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(new RegExp(`^deleted ${(runId as string).replace(/\./g, '\\.')} \\(prompts/echo\\.prompt\\.mdx, [^)]+\\)\\n1 run deleted\\n$`));
  });
});
