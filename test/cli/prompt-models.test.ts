import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, normalize, type CliProject } from './cli-project.js';

// gpt-4o-mini echoes each word; "loud" shouts it (as in side-by-side.test.ts).
const withModels = (models: string) =>
  '---\nname: echo\ntext_config:\n  model_name: openai/gpt-4o-mini\n  temperature: 0\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [exact]\n' +
  `  models: ${models}\n---\n\n<System>Repeat the word.</System>\n\n<User>{props.word}</User>\n`;

let server: OpenAIServer;
let project: CliProject;
beforeAll(async () => {
  server = await startOpenAIServer({ handler: (r) => ({ text: r.model === 'loud' ? r.lastUserText.toUpperCase() : r.lastUserText }) });
  project = await cliProject({
    'prompts/two.prompt.mdx': withModels('[openai/gpt-4o-mini, openai/loud]'),
    'prompts/one.prompt.mdx': withModels('[openai/loud]'),
    'prompts/unknown.prompt.mdx': withModels('[openai/gpt-4o-mini, acme/x1]'),
  });
});
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

const run = (args: string[]) => project.run(['run-experiment', '--no-cache', '--quiet', '--concurrency', '2', ...args], { server, env: { COLUMNS: '300' } });

describe('test_settings.models', () => {
  it('runs the prompt once per model, as repeated --model flags do, ending with the results grid', async () => {
    const before = server.requests.length;
    const fromFile = normalize((await run(['prompts/two.prompt.mdx'])).stdout);
    const fromFlags = normalize((await run(['prompts/two.prompt.mdx', '--model', 'openai/gpt-4o-mini', '--model', 'openai/loud'])).stdout);
    expect(server.requests.slice(before).map((r) => r.body.model).sort()).toEqual(['gpt-4o-mini', 'gpt-4o-mini', 'gpt-4o-mini', 'gpt-4o-mini', 'gpt-4o-mini', 'gpt-4o-mini', 'loud', 'loud', 'loud', 'loud', 'loud', 'loud']);
    // Column widths follow the latencies, so runs of spaces and rules are collapsed before comparing.
    const side = (out: string) => out.slice(out.indexOf('SIDE BY SIDE')).replace(/[ ─]+/g, ' ');
    expect(side(fromFile)).toBe(side(fromFlags));
    expect(fromFile).toContain('GRID: openai/gpt-4o-mini (<run-id>) [base], openai/loud (<run-id>)');
    expect(fromFile.trimEnd().split('\n').at(-1)).toBe('Overall:  2 experiments, 6 rows (0 errored): 0 passed, 2 failed → FAILED (exit 1)');
  });

  it('one model in the list is the prompt\'s model for the run; --model overrides the list', async () => {
    const before = server.requests.length;
    const one = await run(['prompts/one.prompt.mdx', '--format', 'json']);
    expect((JSON.parse(one.stdout) as { run: { model: string } }).run.model).toBe('openai/loud');
    const flag = await run(['prompts/two.prompt.mdx', '--model', 'openai/gpt-4o-mini', '--format', 'json']);
    expect((JSON.parse(flag.stdout) as { run: { model: string } }).run.model).toBe('openai/gpt-4o-mini');
    expect(server.requests.slice(before).map((r) => r.body.model)).toEqual(['loud', 'loud', 'loud', 'gpt-4o-mini', 'gpt-4o-mini', 'gpt-4o-mini']);
  });

  it('a model of the list no provider serves is exit 2 before any call', async () => {
    const before = server.requests.length;
    const result = await run(['prompts/unknown.prompt.mdx']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: unknown provider "acme" in test_settings.models acme/x1 of prompts/unknown.prompt.mdx (known: openai)\n  hint: register the provider under `providers` in agentmark.config.ts\n');
    expect(server.requests.length).toBe(before);
  });
});
