import { afterEach, describe, expect, it } from 'vitest';
import { cliProject, type CliProject } from './cli-project.js';

let project: CliProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

describe('agentmark validate', () => {
  it('passes a good project: exit 0 and what was checked', async () => {
    project = await cliProject();
    const result = await project.run(['validate']);
    expect(result).toMatchObject({ code: 0, stderr: '', stdout: 'ok: 2 prompts, 1 dataset (3 rows) in .\n' });
  });

  it('checks only the paths given', async () => {
    project = await cliProject();
    const result = await project.run(['validate', 'prompts/echo.prompt.mdx']);
    expect(result).toMatchObject({ code: 0, stdout: 'ok: 1 prompt, 1 dataset (3 rows) in .\n' });
  });

  it('says row, not rows, for a dataset of one row', async () => {
    project = await cliProject({ 'datasets/words.jsonl': '{"input":{"word":"a"},"expected_output":"a"}\n' });
    const result = await project.run(['validate', 'prompts/echo.prompt.mdx']);
    expect(result).toMatchObject({ code: 0, stdout: 'ok: 1 prompt, 1 dataset (1 row) in .\n' });
  });

  it('lists every problem as file:line:col: message and exits 2', async () => {
    project = await cliProject({
      // a bare unknown identifier in the body
      'prompts/bad-body.prompt.mdx': '---\nname: bad-body\ntext_config:\n  model_name: openai/gpt-4o-mini\n---\n\n<User>{nope}</User>\n',
      // an eval with no scorer
      'prompts/bad-eval.prompt.mdx':
        '---\nname: bad-eval\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  evals: [exactt]\n---\n\n<User>hi</User>\n',
      // a dataset with a non-JSON line and a row without input
      'prompts/bad-data.prompt.mdx':
        '---\nname: bad-data\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/bad.jsonl\n---\n\n<User>{props.word}</User>\n',
      'datasets/bad.jsonl': '{"input": {"word": "ok"}}\nnot json\n{"expected_output": "x"}\n',
    });
    const result = await project.run(['validate']);
    expect(result.code).toBe(2);
    const lines = result.stdout.trimEnd().split('\n').filter((line) => !line.startsWith('  hint: '));
    expect(lines.length).toBe(4);
    expect(lines[0]).toMatch(/^prompts\/bad-body\.prompt\.mdx:7:8: unknown identifier "nope"$/);
    expect(lines.slice(1)).toEqual([
      'datasets/bad.jsonl:2:1: not valid JSON: unexpected character "n", expected a JSON value',
      'datasets/bad.jsonl:3: row has no "input"',
      expect.stringMatching(/^prompts\/bad-eval\.prompt\.mdx(:\d+:\d+)?: eval "exactt" has no scorer; available: length, exact, /),
    ]);
    expect(result.stdout).toContain('  hint: did you mean "exact"?');
    expect(result.stderr).toBe('4 problems found in 5 prompts, 2 datasets (4 rows)\n');
  });

  it('reports a missing dataset and a broken agentmark.json with their files', async () => {
    project = await cliProject({
      'prompts/missing.prompt.mdx':
        '---\nname: missing\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ./nope.jsonl\n---\n\n<User>hi</User>\n',
    });
    const missing = await project.run(['validate']);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toMatch(/nope\.jsonl/);
    await project.write('agentmark.json', '{ "version": "2.0.0", ');
    const broken = await project.run(['validate']);
    expect(broken.code).toBe(2);
    expect(broken.stderr + broken.stdout).toMatch(/agentmark\.json(:\d+:\d+)?: /);
    expect(broken.stderr).not.toMatch(/\n\s+at /);
  });
});
