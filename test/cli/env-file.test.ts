import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

// Two loopback servers answering differently, so the output says which URL the CLI took.
let fromFile: OpenAIServer;
let fromShell: OpenAIServer;
beforeAll(async () => {
  fromFile = await startOpenAIServer({ handler: () => ({ text: 'from .env' }) });
  fromShell = await startOpenAIServer({ handler: () => ({ text: 'from the shell' }) });
});
afterAll(async () => {
  await fromFile.close();
  await fromShell.close();
});

let project: CliProject;
afterEach(() => project.cleanup());

const ARGS = ['run-prompt', 'prompts/echo.prompt.mdx', '--no-cache'];

describe('.env and .env.local in the project root', () => {
  it('are loaded before the model is resolved: a key and base URL from .env reach the provider', async () => {
    project = await cliProject({ '.env': `# local server\nOPENAI_BASE_URL=${fromFile.url}\nOPENAI_API_KEY="sk-from-dotenv"\n` });
    const result = await project.run(ARGS);
    expect(result).toMatchObject({ code: 0, stdout: 'from .env\n', stderr: '' });
  });

  it('.env.local wins over .env, and the real environment wins over both', async () => {
    project = await cliProject({
      '.env': 'OPENAI_BASE_URL=http://127.0.0.1:9/v1\n',
      '.env.local': `OPENAI_BASE_URL=${fromFile.url}\n`,
    });
    expect(await project.run(ARGS)).toMatchObject({ code: 0, stdout: 'from .env\n' });
    expect(await project.run(ARGS, { env: { OPENAI_BASE_URL: fromShell.url } })).toMatchObject({ code: 0, stdout: 'from the shell\n' });
  });

  it('a malformed line is exit 2 at its line:col, and the value is never printed', async () => {
    project = await cliProject({ '.env': 'OPENAI_API_KEY=ok\nsk-live-abc123\n' });
    const result = await project.run(ARGS);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: \.env:2:1: expected KEY=value\n/);
    expect(result.stdout + result.stderr).not.toContain('sk-live-abc123');
  });
});
