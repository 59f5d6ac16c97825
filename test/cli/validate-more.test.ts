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

const TYPOS = [
  '---',
  'name: echo',
  'text_config:',
  '  model_name: openai/gpt-4o-mini',
  '  temprature: 0',
  '  vendor_flag: true',
  'test_settings:',
  '  dataset: ../datasets/words.jsonl',
  '  datasets: ../datasets/other.jsonl',
  '  evals: [exact]',
  '---',
  '',
  '<User>{props.word}</User>',
  '',
].join('\n');

describe('validate catches more', () => {
  it('unknown keys: a likely typo is an error with line:col and a did-you-mean; others only warn; a run only warns', async () => {
    project = await cliProject({ 'prompts/echo.prompt.mdx': TYPOS });
    const result = await project.run(['validate', 'prompts/echo.prompt.mdx']);
    expect(result.code).toBe(2);
    const hint = (key: string) => `  hint: did you mean "${key}"? (AgentMark ignores unknown keys, so as written the setting has no effect; a run only warns)`;
    expect(result.stdout).toBe(
      [
        'prompts/echo.prompt.mdx:5:3: text_config.temprature is not a known key',
        hint('temperature'),
        'prompts/echo.prompt.mdx:9:3: test_settings.datasets is not a known key',
        hint('dataset'),
        '',
      ].join('\n'),
    );
    expect(result.stderr).toBe(
      'warning: prompts/echo.prompt.mdx:6:3: text_config.vendor_flag is not a known key (AgentMark and this tool ignore it)\n' +
        '2 problems found in 1 prompt, 1 dataset (3 rows)\n',
    );
    // AgentMark accepts (and drops) unknown keys, so a run of the same file goes ahead and warns.
    const run = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--rows', '0', '--quiet', '--format', 'jsonl'], { server });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('prompts/echo.prompt.mdx:5:3: text_config.temprature is not a known key; did you mean "temperature"?');
  });

  it('every key AgentMark documents passes without a word', async () => {
    project = await cliProject({
      'prompts/all.prompt.mdx': [
        '---',
        'name: all',
        'text_config:',
        '  model_name: openai/gpt-4o-mini',
        '  max_tokens: 10',
        '  temperature: 0',
        '  max_calls: 2',
        '  top_p: 1',
        '  top_k: 5',
        '  presence_penalty: 0',
        '  frequency_penalty: 0',
        '  stop_sequences: [END]',
        '  seed: 1',
        '  max_retries: 1',
        '  tool_choice: auto',
        'test_settings:',
        '  props: null',
        '  dataset: ../datasets/words.jsonl',
        '  evals: [exact]',
        '---',
        '',
        '<User>hi</User>',
        '',
      ].join('\n'),
    });
    expect(await project.run(['validate', 'prompts/all.prompt.mdx'])).toMatchObject({ code: 0, stderr: '' });
  });

  it('a categorical score bound to a built-in that gives no label is an error at agentmark.json line:col', async () => {
    project = await cliProject();
    const config = JSON.parse(await project.read('agentmark.json')) as { scores: Record<string, unknown> };
    config.scores['exact'] = { type: 'categorical', scorer: 'exact_match', categories: [{ label: 'same', value: 1 }] };
    await project.write('agentmark.json', `${JSON.stringify(config, null, 2)}\n`);
    const result = await project.run(['validate', 'prompts/echo.prompt.mdx']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe(
      'agentmark.json:9:17: eval "exact": scores.exact is categorical, but the built-in "exact_match" gives no label\n' +
        '  hint: a categorical score is read from the label a scorer returns: use scorer "llm_judge", register a scorer named exact in agentmark.config.ts that returns { label }, or make scores.exact boolean or numeric\n',
    );
  });

  const TYPO_PROMPT = [
    '---',
    'name: echo',
    'text_config:',
    '  model_name: openai/gpt-4o-mini',
    'test_settings:',
    '  dataset: ../datasets/words.jsonl',
    'input_schema:',
    '  type: object',
    '  properties:',
    '    word: { type: string }',
    '---',
    '',
    '<User>{props.word} {props.wordd} {props.extra}</User>',
    '<User>{props.wordd}</User>',
    '<If condition={props.flagg}><User>{props.word}</User></If>',
    '<ForEach arr={props.itemz}>{(item) => <User>{item}</User>}</ForEach>',
    '',
  ].join('\n');

  it('props.x not in input_schema is an error at its first use, with a did-you-mean', async () => {
    project = await cliProject({ 'prompts/echo.prompt.mdx': TYPO_PROMPT });
    const result = await project.run(['validate', 'prompts/echo.prompt.mdx']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe(
      [
        'prompts/echo.prompt.mdx:13:27: props.wordd is not declared in input_schema',
        '  hint: did you mean "props.word"? (declared: word)',
        'prompts/echo.prompt.mdx:13:41: props.extra is not declared in input_schema',
        '  hint: declare it under input_schema.properties, or read one of: word',
        'prompts/echo.prompt.mdx:15:22: props.flagg is not declared in input_schema',
        '  hint: declare it under input_schema.properties, or read one of: word',
        'prompts/echo.prompt.mdx:16:21: props.itemz is not declared in input_schema',
        '  hint: declare it under input_schema.properties, or read one of: word',
        '',
      ].join('\n'),
    );
  });

  it("an undeclared prop in a component's attribute is an error; the component's own props are its attributes", async () => {
    project = await cliProject({
      'prompts/part.mdx': '[{props.label}] {props.children}\n',
      'prompts/echo.prompt.mdx': [
        '---',
        'name: echo',
        'text_config:',
        '  model_name: openai/gpt-4o-mini',
        'input_schema:',
        '  type: object',
        '  properties:',
        '    word: { type: string }',
        '---',
        "import Part from './part.mdx'",
        '',
        '<User><Part label={props.wrd}>{props.word}</Part></User>',
        '',
      ].join('\n'),
    });
    const result = await project.run(['validate', 'prompts/echo.prompt.mdx']);
    expect(result).toMatchObject({
      code: 2,
      stdout: 'prompts/echo.prompt.mdx:12:26: props.wrd is not declared in input_schema\n  hint: did you mean "props.word"? (declared: word)\n',
    });
  });

  it('a run refuses a prompt reading an undeclared prop before any model call', async () => {
    project = await cliProject({ 'prompts/echo.prompt.mdx': TYPO_PROMPT });
    const requestsBefore = server.requests.length;
    const run = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet'], { server });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('prompts/echo.prompt.mdx:13:27: props.wordd is not declared in input_schema\n  hint: did you mean "props.word"? (declared: word)\n');
    expect(server.requests.length).toBe(requestsBefore);
    expect(await project.runIds()).toEqual([]);
  });

  it('without properties in input_schema, or with additionalProperties, any prop may be read (warned of when no row has it)', async () => {
    const prompt = (schema: string[]) =>
      ['---', 'name: echo', 'text_config:', '  model_name: openai/gpt-4o-mini', 'test_settings:', '  dataset: ../datasets/words.jsonl', ...schema, '---', '', '<User>{props.word} {props.extra}</User>', ''].join('\n');
    project = await cliProject({
      'prompts/none.prompt.mdx': prompt([]),
      'prompts/open.prompt.mdx': prompt(['input_schema:', '  type: object', '  additionalProperties: true', '  properties:', '    word: { type: string }']),
    });
    // Without a schema nothing refuses it; only the rows can tell (issue 39): none has `extra`.
    expect(await project.run(['validate', 'prompts/none.prompt.mdx'])).toMatchObject({
      code: 0,
      stderr: 'warning: prompts/none.prompt.mdx:9:27: props.extra is in no row of datasets/words.jsonl (3 rows): it renders as an empty string (the rows have: word)\n',
    });
    const open = await project.run(['validate', 'prompts/open.prompt.mdx']);
    expect(open).toMatchObject({ code: 0, stdout: 'ok: 1 prompt, 1 dataset (3 rows) in .\n' });
    expect(open.stderr).toBe('warning: prompts/open.prompt.mdx:14:27: props.extra is not declared in input_schema (declared: word)\n');
  });

  it('lists every problem of a prompt at once: frontmatter, tags and expressions', async () => {
    project = await cliProject({
      'prompts/echo.prompt.mdx': [
        '---',
        'name: echo',
        'text_config:',
        '  model_name: openai/gpt-4o-mini',
        '  temprature: 0',
        '---',
        '',
        '<User>{nope} <Foo /></User>',
        '<Userr>x</Userr>',
        '<User>{alsoNope}</User>',
        '',
      ].join('\n'),
    });
    const result = await project.run(['validate', 'prompts/echo.prompt.mdx']);
    expect(result.code).toBe(2);
    const lines = result.stdout.split('\n').filter((line) => line.startsWith('prompts/'));
    expect(lines.map((line) => line.replace(/: .*$/, '')).sort()).toEqual([
      'prompts/echo.prompt.mdx:10:8',
      'prompts/echo.prompt.mdx:5:3',
      'prompts/echo.prompt.mdx:8:14',
      'prompts/echo.prompt.mdx:8:8',
      'prompts/echo.prompt.mdx:9:1',
    ]);
  });
});
