import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

let server: OpenAIServer;
beforeAll(async () => {
  server = await startOpenAIServer();
});
afterAll(() => server.close());

let project: CliProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

/** No input_schema: `{props.subjet}` rendered as "" on every row, and nothing said so. */
const PROMPT = [
  '---',
  'name: echo',
  'text_config:',
  '  model_name: openai/gpt-4o-mini',
  'test_settings:',
  '  dataset: ../datasets/words.jsonl',
  '  evals: [exact]',
  '---',
  '',
  '<User>Subject: {props.wrd} {props.word}</User>',
  '<User>{props.wrd} {props.tone}</User>',
  '',
].join('\n');

const WARNINGS = [
  'warning: prompts/echo.prompt.mdx:10:23: props.wrd is in no row of datasets/words.jsonl (3 rows): it renders as an empty string; did you mean "props.word"? (the rows have: word)',
  'warning: prompts/echo.prompt.mdx:11:26: props.tone is in no row of datasets/words.jsonl (3 rows): it renders as an empty string (the rows have: word)',
];

describe('a prop the template reads that no dataset row has: a warning with a did-you-mean (no input_schema)', () => {
  it('validate warns at the first use of each, and passes', async () => {
    project = await cliProject({ 'prompts/echo.prompt.mdx': PROMPT });
    const result = await project.run(['validate', 'prompts/echo.prompt.mdx']);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning: '))).toEqual(WARNINGS);
  });

  it('run-experiment warns the same before its rows run', async () => {
    project = await cliProject({ 'prompts/echo.prompt.mdx': PROMPT });
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--format', 'jsonl'], { server });
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning: '))).toEqual(WARNINGS);
  });

  it('a prop some row has is no warning; nor is one every row has', async () => {
    project = await cliProject({
      'prompts/echo.prompt.mdx': PROMPT,
      'datasets/words.jsonl': '{"input": {"word": "a"}}\n{"input": {"word": "b", "wrd": "x", "tone": "calm"}}\n',
    });
    const result = await project.run(['validate', 'prompts/echo.prompt.mdx']);
    expect(result).toMatchObject({ code: 0 });
    expect(result.stderr).not.toContain('warning:');
  });
});
