import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

// Two loopback servers that answer differently, so both the request log and the output say
// which one the CLI called.
let fromConfig: OpenAIServer;
let fromEnv: OpenAIServer;
beforeAll(async () => {
  fromConfig = await startOpenAIServer({ handler: () => ({ text: 'config server' }) });
  fromEnv = await startOpenAIServer({ handler: () => ({ text: 'env server' }) });
});
afterAll(async () => {
  await fromConfig.close();
  await fromEnv.close();
});

let project: CliProject;
afterEach(() => project.cleanup());

async function run(env: NodeJS.ProcessEnv): Promise<{ code: number | null; outputs: unknown[]; stderr: string }> {
  project = await cliProject({ 'agentmark.config.ts': `export default { baseURL: ${JSON.stringify(fromConfig.url)} };\n` });
  fromConfig.requests.length = 0;
  fromEnv.requests.length = 0;
  const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--no-cache', '--quiet', '--rows', '0-1', '--format', 'jsonl'], { env });
  const outputs = result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { output: unknown }).output);
  return { code: result.code, outputs, stderr: result.stderr };
}

describe("the OpenAI base URL: OPENAI_BASE_URL wins over the config's baseURL", () => {
  it("uses the config's baseURL when OPENAI_BASE_URL is not set (no key needed)", async () => {
    const result = await run({});
    expect(result.stderr).toBe('');
    expect(result.outputs).toEqual(['config server', 'config server']);
    expect(fromConfig.requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(fromEnv.requests).toEqual([]);
  });

  it('sends every request to OPENAI_BASE_URL when both are set', async () => {
    const result = await run({ OPENAI_BASE_URL: fromEnv.url, OPENAI_API_KEY: 'test' });
    expect(result.stderr).toBe('');
    expect(result.outputs).toEqual(['env server', 'env server']);
    expect(fromEnv.requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(fromConfig.requests).toEqual([]);
  });

  it("an empty OPENAI_BASE_URL counts as unset: the config's baseURL is used", async () => {
    const result = await run({ OPENAI_BASE_URL: '' });
    expect(result.outputs).toEqual(['config server', 'config server']);
    expect(fromEnv.requests).toEqual([]);
  });
});
