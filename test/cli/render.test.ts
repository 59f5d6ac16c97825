import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliProject, type CliProject } from './cli-project.js';

let project: CliProject;
beforeAll(async () => {
  project = await cliProject({
    'props.json': '{"word": "from-json"}',
    'props.yaml': 'word: from-yaml\n',
    'list.yaml': '- a\n- b\n',
    'broken.yaml': 'word: [unclosed\n',
  });
});
afterAll(() => project.cleanup());

const echoRender = (word: string): unknown => ({
  name: 'echo',
  messages: [
    { role: 'system', content: 'Repeat the word.' },
    { role: 'user', content: word },
  ],
  test_settings: { dataset: '../datasets/words.jsonl', evals: ['exact'], props: { word: 'hello' } },
  text_config: { model_name: 'openai/gpt-4o-mini', temperature: 0 },
});

describe('agentmark render', () => {
  it.each([
    ['test_settings.props by default', [], 'hello'],
    ['--props JSON', ['--props', '{"word":"given"}'], 'given'],
    ['--props-file JSON', ['--props-file', 'props.json'], 'from-json'],
    ['--props-file YAML', ['--props-file', 'props.yaml'], 'from-yaml'],
    ['--row n (zero-based)', ['--row', '1'], 'beta'],
  ])('renders with %s', async (_label, flags, word) => {
    const result = await project.run(['render', 'prompts/echo.prompt.mdx', ...flags]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(echoRender(word));
  });

  it('renders an object prompt with its schema', async () => {
    const result = await project.run(['render', 'prompts/shout.prompt.mdx', '--row', '2']);
    expect(result.code).toBe(0);
    const rendered = JSON.parse(result.stdout) as { messages: unknown; object_config: { schema: unknown } };
    expect(rendered.messages).toEqual([{ role: 'user', content: 'GAMMA' }]);
    expect(rendered.object_config.schema).toMatchObject({ type: 'object', required: ['word'] });
  });

  it('finds the project from the prompt path when run elsewhere', async () => {
    const result = await project.run(['render', `${project.dir}/prompts/echo.prompt.mdx`], { cwd: '/' });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(echoRender('hello'));
  });

  it.each([
    [['--props', '{"word":"x"}', '--row', '0'], 'error: --props and --row cannot be used together\n'],
    [['--props', '{}', '--props-file', 'props.json'], 'error: --props and --props-file cannot be used together\n'],
    [['--props', '{'], /^error: --props is not valid JSON: .+\n$/],
    [['--props', '[1]'], 'error: --props must be an object of props, e.g. {"name": "Ada"}\n'],
    [['--props-file', 'nope.json'], 'error: --props-file nope.json: no such file\n'],
    [['--props-file', 'list.yaml'], 'error: list.yaml must be an object of props, e.g. {"name": "Ada"}\n'],
    [['--props-file', 'broken.yaml'], /^error: broken\.yaml: .+/],
    [['--row', '3'], 'error: --row 3: the dataset ../datasets/words.jsonl has fewer rows\n  hint: rows are counted from 0\n'],
    [['--row', '-1'], /^error: --row needs a value/],
  ])('rejects %j with exit 2', async (flags, message) => {
    const result = await project.run(['render', 'prompts/echo.prompt.mdx', ...flags]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('needs exactly one prompt, and names a missing one', async () => {
    const none = await project.run(['render']);
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toBe('error: render takes exactly one prompt file\n  hint: e.g. `agentmark render prompts/support.prompt.mdx --row 0`\n');
    const missing = await project.run(['render', 'prompts/nope.prompt.mdx']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: prompts\/nope\.prompt\.mdx: .*(not found|ENOENT)/);
  });
});
