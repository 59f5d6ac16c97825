import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

let server: OpenAIServer;
let project: CliProject;
let id = '';
beforeAll(async () => {
  server = await startOpenAIServer();
  project = await cliProject();
  const first = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--rows', '0-1', '--repeat', '2', '--format', 'jsonl'], { server });
  expect(first.code).toBe(0);
  [id = ''] = await project.runIds();
});
afterAll(async () => {
  await project.cleanup();
  await server.close();
});

describe('run-experiment --resume <id> alone', () => {
  it('takes the prompt, the dataset and the options (rows, repeats) from the run', async () => {
    const before = server.requests.length;
    const result = await project.run(['run-experiment', '--resume', id, '--quiet', '--format', 'jsonl'], { server });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // the finished run's 2 rows × 2 repeats, replayed; nothing is run again
    const rows = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { index: number; repeat: number });
    expect(rows.map((row) => `${row.index}.${row.repeat}`).sort()).toEqual(['0.0', '0.1', '1.0', '1.1']);
    expect(server.requests.length).toBe(before);
    expect(await project.runIds()).toEqual([id]);
  });

  it('flags given still win, and one that differs from the run is refused', async () => {
    const result = await project.run(['run-experiment', '--resume', id, '--rows', '0'], { server });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: cannot resume run ${id}: it selected other rows (--rows, --sample, --sample-rows, --limit or --split differ)\n` +
        '  hint: resume with the same prompt, dataset and options, or start a new run without --resume\n',
    );
  });

  it('an unknown run is exit 2', async () => {
    const result = await project.run(['run-experiment', '--resume', '20260101-000000.000-abcdef'], { server });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: .*20260101-000000\.000-abcdef/);
  });
});
