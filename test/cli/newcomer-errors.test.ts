import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliProject, type CliProject } from './cli-project.js';

let project: CliProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const prompt = (body: string, settings = ''): string =>
  ['---', 'name: echo', 'text_config:', '  model_name: openai/gpt-4o-mini', ...(settings ? ['test_settings:', settings] : []), '---', '', body, ''].join('\n');

describe('errors a newcomer meets', () => {
  it('--model without a provider prefix: did you mean openai/…, before any call', async () => {
    project = await cliProject();
    const run = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--model', 'gpt-4o']);
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: model "gpt-4o" is not of the form provider/model (known providers: openai)\n  hint: did you mean "openai/gpt-4o"?\n',
    });
    const once = await project.run(['run-prompt', 'prompts/echo.prompt.mdx', '--model', 'claude-sonnet-4-5']);
    expect(once.code).toBe(2);
    expect(once.stderr).toContain('  hint: did you mean "anthropic/claude-sonnet-4-5"?\n');
    // A name that does not say its maker keeps the general hint.
    const unknown = await project.run(['run-prompt', 'prompts/echo.prompt.mdx', '--model', 'my-model']);
    expect(unknown.stderr).toBe('error: model "my-model" is not of the form provider/model (known providers: openai)\n  hint: write e.g. model_name: openai/gpt-4o-mini\n');
  });

  it('an expression that does not parse: our message, with the expression and its line:col', async () => {
    project = await cliProject({ 'prompts/echo.prompt.mdx': prompt('<User>Hello {props.word +} there</User>') });
    const result = await project.run(['validate', 'prompts/echo.prompt.mdx']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe(
      'prompts/echo.prompt.mdx:7:26: cannot parse the expression {props.word +}: unexpected token\n' +
        '  hint: a {…} holds one JavaScript expression, e.g. {props.name} or {upper(props.name)}; write literal braces inside <Raw>…</Raw>\n',
    );
    expect(result.stdout).not.toContain('acorn');
  });

  it('an expression that does not parse, in an attribute and over lines: the whole expression, on one line', async () => {
    project = await cliProject({ 'prompts/echo.prompt.mdx': prompt('<User>\n<If condition={props.word ==\n  }>yes</If>\n</User>') });
    const result = await project.run(['validate', 'prompts/echo.prompt.mdx']);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^prompts\/echo\.prompt\.mdx:\d+:\d+: cannot parse the expression \{props\.word == \}: unexpected token\n/);
  });

  it('dataset not found: only paths inside the project, and a did-you-mean', async () => {
    project = await cliProject({ 'prompts/echo.prompt.mdx': prompt('<User>{props.word}</User>', '  dataset: ../datasets/word.jsonl') });
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      `error: prompts/echo.prompt.mdx:6:3: dataset "../datasets/word.jsonl" not found; tried ${join(project.dir, 'datasets', 'word.jsonl')}\n` +
        '  hint: did you mean "../datasets/words.jsonl"? (test_settings.dataset is resolved next to the prompt file, then from agentmarkPath, then from the project root)\n',
    );
  });

  it('dataset not found with nothing close: the places tried inside the project, and how it is resolved', async () => {
    project = await cliProject({ 'prompts/echo.prompt.mdx': prompt('<User>{props.word}</User>', '  dataset: ./golden.jsonl') });
    const result = await project.run(['validate', 'prompts/echo.prompt.mdx']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe(
      `prompts/echo.prompt.mdx:6:3: dataset "./golden.jsonl" not found; tried ${join(project.dir, 'prompts', 'golden.jsonl')}, ${join(project.dir, 'golden.jsonl')}\n` +
        '  hint: test_settings.dataset is resolved next to the prompt file, then from agentmarkPath, then from the project root\n',
    );
  });

  it('outside a project, the hint names agentmark init', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentmark-no-project-'));
    try {
      const result = await runCli(['run-experiment', 'x.prompt.mdx'], { cwd: dir });
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toBe(
        `error: no agentmark.json found in ${dir} or any folder above it\n` +
          '  hint: run `agentmark init` to start a project here, or pass --project <dir> to use one elsewhere\n',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
