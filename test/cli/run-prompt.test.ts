import type { ChildProcess } from 'node:child_process';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { REPO_ROOT } from '../helpers/temp-project.js';
import { cliProject, type CliProject } from './cli-project.js';

const toolConfig = `import { jsonSchema, tool } from 'ai';

export default {
  tools: {
    weather: tool({
      description: 'Weather by city',
      inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
      execute: async ({ city }: { city: string }) => ({ city, celsius: 4 }),
    }),
  },
};
`;
const toolPrompt =
  '---\nname: forecast\ntext_config:\n  model_name: openai/gpt-4o-mini\n  tools: [weather]\n  max_calls: 3\ntest_settings:\n  props:\n    city: Oslo\n---\n\n<User>Weather in {props.city}?</User>\n';

const server = useOpenAIServer();
let project: CliProject;
afterEach(() => project.cleanup());

describe('agentmark run-prompt', () => {
  it('prints the text output', async () => {
    project = await cliProject();
    const result = await project.run(['run-prompt', 'prompts/echo.prompt.mdx', '--props', '{"word":"hi there"}'], { server });
    expect(result).toMatchObject({ code: 0, stdout: 'hi there\n', stderr: '' });
    expect(server.requests).toHaveLength(1);
  });

  it('--props and --props-file are checked against input_schema like dataset rows, before any call', async () => {
    project = await cliProject({
      'prompts/typed.prompt.mdx':
        '---\nname: typed\ntext_config:\n  model_name: openai/gpt-4o-mini\ninput_schema:\n  type: object\n  properties:\n    word: { type: string }\n  required: [word]\n---\n\n<User>{props.word}</User>\n',
      'props.json': '{"wrd": "hi"}',
    });
    const bad = await project.run(['run-prompt', 'prompts/typed.prompt.mdx', '--props', '{"word": 3}'], { server });
    expect(bad).toMatchObject({ code: 2, stdout: '', stderr: "error: --props does not match the prompt's input_schema: props/word must be string (got integer)\n" });
    const file = await project.run(['run-prompt', 'prompts/typed.prompt.mdx', '--props-file', 'props.json'], { server });
    expect(file).toMatchObject({ code: 2, stdout: '', stderr: "error: props.json does not match the prompt's input_schema: props must have required property \"word\"\n" });
    expect(server.requests).toHaveLength(0);
    const good = await project.run(['run-prompt', 'prompts/typed.prompt.mdx', '--props', '{"word": "ok"}'], { server });
    expect(good).toMatchObject({ code: 0, stdout: 'ok\n', stderr: '' });
  });

  it('--cache-only answers from the cache with no key and no server; a miss is a failed call (exit 1) naming the flag', async () => {
    project = await cliProject();
    const recorded = await project.run(['run-prompt', 'prompts/echo.prompt.mdx', '--props', '{"word":"kept"}'], { server });
    expect(recorded).toMatchObject({ code: 0, stdout: 'kept\n' });
    const calls = server.requests.length;
    // no OPENAI_API_KEY, no base URL: the answer can only come from the cache
    const replayed = await project.run(['run-prompt', 'prompts/echo.prompt.mdx', '--props', '{"word":"kept"}', '--cache-only']);
    expect(replayed).toMatchObject({ code: 0, stdout: 'kept\n', stderr: '' });
    const missed = await project.run(['run-prompt', 'prompts/echo.prompt.mdx', '--props', '{"word":"new"}', '--cache-only']);
    expect(missed.code).toBe(1);
    expect(missed.stdout).toBe('');
    expect(missed.stderr).toBe(
      'error: openai/gpt-4o-mini: no cached response for this request (--cache-only)\n' +
        '  hint: run once without --cache-only to record it; a changed prompt, setting or repeat count changes the key\n',
    );
    expect(server.requests.length).toBe(calls);
    const both = await project.run(['run-prompt', 'prompts/echo.prompt.mdx', '--cache-only', '--no-cache']);
    expect(both).toMatchObject({ code: 2, stderr: 'error: --cache-only and --no-cache cannot be used together\n' });
  });

  it('prints an object output as JSON', async () => {
    project = await cliProject();
    const result = await project.run(['run-prompt', 'prompts/shout.prompt.mdx', '--row', '0'], { server });
    expect(result).toMatchObject({ code: 0, stdout: '{\n  "word": "ALPHA"\n}\n', stderr: '' });
  });

  it('prints the tool calls made, after the final text', async () => {
    project = await cliProject({ 'agentmark.config.ts': toolConfig, 'prompts/forecast.prompt.mdx': toolPrompt });
    // the config imports `ai`, as a user's project would have it installed
    await symlink(join(REPO_ROOT, 'node_modules'), join(project.dir, 'node_modules'), 'dir');
    server.setHandler((request) =>
      request.toolResults.length === 0
        ? { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }
        : { text: `It is ${JSON.parse(request.toolResults[0]?.output ?? '{}').celsius} degrees.` },
    );
    const result = await project.run(['run-prompt', 'prompts/forecast.prompt.mdx'], { server });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('It is 4 degrees.\ntool weather({"city":"Oslo"}) -> {"city":"Oslo","celsius":4}\n');
  });

  it('--json prints the whole response; a second run comes from the cache', async () => {
    project = await cliProject();
    const first = await project.run(['run-prompt', 'prompts/echo.prompt.mdx', '--json'], { server });
    expect(JSON.parse(first.stdout)).toMatchObject({ output: 'hello', cached: false, toolCalls: [], retries: 0, finishReason: 'stop' });
    const second = await project.run(['run-prompt', 'prompts/echo.prompt.mdx', '--json'], { server });
    expect(JSON.parse(second.stdout)).toMatchObject({ output: 'hello', cached: true });
    expect(server.requests).toHaveLength(1);
    await project.run(['run-prompt', 'prompts/echo.prompt.mdx', '--no-cache'], { server });
    expect(server.requests).toHaveLength(2);
  });

  it('--model overrides the model, even one outside builtInModels; an unknown provider is refused', async () => {
    project = await cliProject();
    const result = await project.run(['run-prompt', 'prompts/echo.prompt.mdx', '--model', 'openai/gpt-4o'], { server });
    expect(result.code).toBe(0);
    expect(server.requests.map((r) => r.body.model)).toEqual(['gpt-4o']);
    const config = JSON.parse(await project.read('agentmark.json')) as Record<string, unknown>;
    await project.write('agentmark.json', JSON.stringify({ ...config, builtInModels: ['openai/gpt-4o-mini'] }));
    expect((await project.run(['run-prompt', 'prompts/echo.prompt.mdx', '--model', 'openai/gpt-4o'], { server })).code).toBe(0);
    const refused = await project.run(['run-prompt', 'prompts/echo.prompt.mdx', '--model', 'acme/gpt-4o'], { server });
    expect(refused).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: unknown provider "acme" in --model acme/gpt-4o (known: openai)\n  hint: register the provider under `providers` in agentmark.config.ts\n',
    });
    // The second gpt-4o call was answered from the response cache.
    expect(server.requests).toHaveLength(1);
  });

  it('Ctrl-C cancels the call and exits 130', async () => {
    project = await cliProject();
    server.setHandler(() => ({ hang: true }));
    let child: ChildProcess | undefined;
    const done = project.run(['run-prompt', 'prompts/echo.prompt.mdx'], { server, onSpawn: (spawned) => (child = spawned) });
    await expect.poll(() => server.inFlight, { timeout: 10_000, interval: 10 }).toBe(1);
    child?.kill('SIGINT');
    const result = await done;
    expect(result).toMatchObject({ code: 130, stdout: '', stderr: 'interrupted\n' });
    await expect.poll(() => server.closedEarly, { timeout: 15_000 }).toBe(1);
  });

  it('a model that keeps failing is one clear error, exit 1 (not an input error)', async () => {
    project = await cliProject();
    server.setHandler(() => ({ status: 500, message: 'overloaded' }));
    const result = await project.run(['run-prompt', 'prompts/echo.prompt.mdx', '--max-retries', '0'], { server });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: .*overloaded/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('a refused key is one clear error, exit 2', async () => {
    project = await cliProject();
    server.setHandler(() => ({ status: 401, message: 'bad key' }));
    const result = await project.run(['run-prompt', 'prompts/echo.prompt.mdx'], { server });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: .*bad key/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('agentmark score --outputs', () => {
  it('scores pre-generated outputs without calling a model', async () => {
    project = await cliProject({
      'outputs.jsonl':
        '{"input": {"word": "alpha"}, "expected_output": "alpha", "output": "alpha"}\n' +
        '{"input": {"word": "beta"}, "expected_output": "beta", "output": "BETA"}\n',
    });
    const result = await project.run(['score', 'prompts/echo.prompt.mdx', '--outputs', 'outputs.jsonl', '--quiet', '--format', 'csv'], { server });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(server.requests).toHaveLength(0);
    expect(result.stdout).toBe(
      'index,repeat,name,tags,input,expected_output,output,error,latency_ms,cached,exact_score,exact_passed,exact_label,exact_reason,exact_error\n' +
        '0,0,,,"{""word"":""alpha""}",alpha,alpha,,,false,1,true,,output equals expected,\n' +
        '1,0,,,"{""word"":""beta""}",beta,BETA,,,false,0,false,,"output ""BETA"" does not equal expected ""beta""",\n',
    );
  });

  it('a row without an output is an errored row; a missing file is an input error', async () => {
    project = await cliProject({ 'outputs.jsonl': '{"input": {"word": "alpha"}, "expected_output": "alpha"}\n' });
    const result = await project.run(['score', 'prompts/echo.prompt.mdx', '--outputs', 'outputs.jsonl', '--quiet', '--format', 'jsonl'], { server });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ index: 0, error: 'this row has no "output" to score', errorCode: 'DATASET_NO_OUTPUT' });
    const missing = await project.run(['score', 'prompts/echo.prompt.mdx', '--outputs', 'nope.jsonl'], { server });
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^error: .*nope\.jsonl/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
    expect(server.requests).toHaveLength(0);
  });
});
