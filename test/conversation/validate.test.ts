import { afterEach, describe, expect, it } from 'vitest';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { conversationFiles, SUPPORT_PROMPT } from './setup.js';

let project: CliProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

/**
 * `validate` of the conversation prompt in the built CLI: its exit code, its problem lines (hints
 * left out), and whether it printed exactly what `run-experiment` stops with on the same project.
 */
async function validate(files: Record<string, string>): Promise<{ code: number | null; lines: string[]; sameAsRun: boolean }> {
  // The built CLI knows no mock provider: a model of a real one, never called (the run stops at its input check).
  project = await cliProject(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, text.replace(/mock\/\w+/g, 'openai/gpt-4o-mini')])));
  const result = await project.run(['validate', 'prompts/echo.prompt.mdx']);
  const run = await project.run(['run-experiment', 'prompts/echo.prompt.mdx']);
  return {
    code: result.code,
    lines: result.stdout.trimEnd().split('\n').filter((line) => !line.startsWith('  hint: ')),
    sameAsRun: run.code === 2 && run.stderr === `error: ${result.stdout}`,
  };
}

const withoutSimulator = (): string => SUPPORT_PROMPT().replace('  conversation:\n    simulator: ./customer.prompt.mdx\n', '');

describe('agentmark validate on conversation prompts: the errors run-experiment gives, at the same place', () => {
  it('a good conversation project: exit 0', async () => {
    project = await cliProject(conversationFiles());
    const result = await project.run(['validate', 'prompts/echo.prompt.mdx']);
    expect(result).toMatchObject({ code: 0, stderr: '', stdout: 'ok: 1 prompt, 1 dataset (2 rows) in .\n' });
  });

  it.each<[string, Record<string, string>, string]>([
    [
      'a row with a scenario but no simulator',
      { ...conversationFiles(), 'prompts/echo.prompt.mdx': withoutSimulator(), 'datasets/talks.jsonl': '{"input": {"shop": "A"}}\n{"input": {"shop": "B"}, "scenario": {"goal": "x"}}\n' },
      'datasets/talks.jsonl:2:26: ',
    ],
    ['a scenario that breaks the simulator\'s input_schema', conversationFiles([], '{"input": {"shop": "A"}, "scenario": {"goal": 3}}\n'), 'datasets/talks.jsonl:1:26: '],
    [
      'a messages entry with an unknown role',
      conversationFiles([], '{"input": {"shop": "A"}, "messages": [{"role": "user", "content": "a"}, {"role": "robot", "content": "b"}]}\n'),
      'datasets/talks.jsonl:1:74: ',
    ],
    ['a messages entry without content', conversationFiles([], '{"input": {"shop": "A"}, "messages": [{"role": "user"}]}\n'), 'datasets/talks.jsonl:1:39: '],
    ['max_turns below 1', conversationFiles(['    max_turns: 0']), 'prompts/echo.prompt.mdx:9:1: '],
    [
      'a simulator that is not a prompt file',
      { ...conversationFiles(), 'prompts/echo.prompt.mdx': SUPPORT_PROMPT().replace('./customer.prompt.mdx', './customer.md') },
      'prompts/echo.prompt.mdx:8:5: ',
    ],
    [
      'an eval in both evals and turn_evals',
      { ...conversationFiles(), 'prompts/echo.prompt.mdx': SUPPORT_PROMPT().replace('  conversation:', '  evals: [polite]\n  turn_evals: [polite]\n  conversation:') },
      'prompts/echo.prompt.mdx:8:16: ',
    ],
  ])('%s: exit 2, one error at its file:line:col', async (_what, files, where) => {
    const { code, lines, sameAsRun } = await validate(files);
    expect(code).toBe(2);
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^${where.replaceAll('.', '\\.')}`))]);
    expect(sameAsRun).toBe(true);
  });
});
