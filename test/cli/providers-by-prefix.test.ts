import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { writeStandInProvider } from '../helpers/stand-in-provider.js';
import { cliProject, type CliProject } from './cli-project.js';

let server: OpenAIServer;
beforeAll(async () => {
  server = await startOpenAIServer({ handler: (request) => ({ text: `${request.model}: ${request.lastUserText}` }) });
});
afterAll(() => server.close());

let project: CliProject;
afterEach(() => project.cleanup());

const PROMPT = '---\nname: hi\ntext_config:\n  model_name: anthropic/claude-haiku-4-5\n---\n\n<User>hello</User>\n';

describe('providers by prefix, from the project’s node_modules', () => {
  it('anthropic/… runs through an installed @ai-sdk/anthropic with no code in the config', async () => {
    project = await cliProject({ 'prompts/hi.prompt.mdx': PROMPT });
    await writeStandInProvider(project.dir, '@ai-sdk/anthropic', 'createAnthropic', 'anthropic');
    server.requests.length = 0;
    const result = await project.run(['run-prompt', 'prompts/hi.prompt.mdx', '--no-cache'], { env: { STAND_IN_BASE_URL: server.url } });
    expect(result).toMatchObject({ code: 0, stdout: '@ai-sdk/anthropic:claude-haiku-4-5: hello\n', stderr: '' });
    // --model with another installed provider, on the echo prompt's dataset.
    await writeStandInProvider(project.dir, '@ai-sdk/groq', 'createGroq', 'groq');
    const run = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--model', 'groq/llama-3.3-70b', '--rows', '0', '--quiet', '--format', 'jsonl'], {
      env: { STAND_IN_BASE_URL: server.url },
    });
    // Exit 1: the echo prompt's `exact` eval fails, since the answer names who gave it.
    expect(run.code).toBe(1);
    expect((JSON.parse(run.stdout) as { output: string }).output).toBe('@ai-sdk/groq:llama-3.3-70b: alpha');
  });

  it('without the package: exit 2 before any call, naming the package to install', async () => {
    project = await cliProject({ 'prompts/hi.prompt.mdx': PROMPT });
    server.requests.length = 0;
    const hint = 'run `npm install @ai-sdk/anthropic@3` in the project (major 3 is the one that works with ai 6), or register the provider under `providers` in agentmark.config.ts';
    expect(await project.run(['run-prompt', 'prompts/hi.prompt.mdx'], { env: { STAND_IN_BASE_URL: server.url } })).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: model_name "anthropic/claude-haiku-4-5" needs the AI SDK provider package @ai-sdk/anthropic, which is not installed in this project\n  hint: ${hint}\n`,
    });
    expect(await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--model', 'anthropic/claude-x'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: --model anthropic/claude-x needs the AI SDK provider package @ai-sdk/anthropic, which is not installed in this project\n  hint: ${hint}\n`,
    });
    expect(server.requests).toEqual([]);
    expect(await project.runIds()).toEqual([]);
  });
});
