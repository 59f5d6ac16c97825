import { afterEach, describe, expect, it } from 'vitest';
import { AgentmarkError, flattenErrors } from '../../src/errors/index.js';
import { fixture, type Fixture } from '../experiment/setup.js';
import { conversationFiles, scriptedModel, SUPPORT_PROMPT } from './setup.js';

let current: Fixture | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

/** Runs the fixture and returns its error's problems as `code where`, after checking no model call was made. */
async function problems(files: Record<string, string>): Promise<string[]> {
  const model = scriptedModel();
  current = await fixture(files, model);
  const error = await current.run().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AgentmarkError);
  expect(model.doGenerateCalls).toHaveLength(0);
  return flattenErrors(error as AgentmarkError).map((problem) => `${problem.code} ${problem.where}`);
}

const withoutSimulator = (settings: string[] = []): string =>
  SUPPORT_PROMPT(settings).replace('  conversation:\n    simulator: ./customer.prompt.mdx\n', '');

describe('conversation input errors, before any call', () => {
  it('a row with a scenario but no simulator: at the scenario key', async () => {
    const files = conversationFiles();
    files['prompts/echo.prompt.mdx'] = withoutSimulator();
    files['datasets/talks.jsonl'] = '{"input": {"shop": "A"}}\n{"input": {"shop": "B"}, "scenario": {"goal": "x"}}\n';
    expect(await problems(files)).toEqual([expect.stringMatching(/^DATASET_SCENARIO_WITHOUT_SIMULATOR .*datasets\/talks\.jsonl:2:26$/)]);
  });

  it('a scenario that breaks the simulator\'s input_schema', async () => {
    expect(await problems(conversationFiles([], '{"input": {"shop": "A"}, "scenario": {"goal": 3}}\n'))).toEqual([
      expect.stringMatching(/^DATASET_SCENARIO_SCHEMA .*talks\.jsonl:1:26$/),
    ]);
  });

  it.each([
    ['an unknown role', '{"input": {"shop": "A"}, "messages": [{"role": "user", "content": "a"}, {"role": "robot", "content": "b"}]}', 'talks.jsonl:1:74'],
    ['a missing content', '{"input": {"shop": "A"}, "messages": [{"role": "user"}]}', 'talks.jsonl:1:39'],
    ['messages that are not an array', '{"input": {"shop": "A"}, "messages": "hi"}', 'talks.jsonl:1:26'],
  ])('a messages entry with %s: at its line:col', async (_what, line, where) => {
    const files = conversationFiles([], `${line}\n`);
    expect(await problems(files)).toEqual([expect.stringMatching(new RegExp(`^DATASET_BAD_MESSAGES .*${where.replace('.', '\\.')}$`))]);
  });

  it('a simulator that is not a prompt file', async () => {
    const files = conversationFiles();
    files['prompts/echo.prompt.mdx'] = SUPPORT_PROMPT().replace('./customer.prompt.mdx', './customer.md');
    expect(await problems(files)).toEqual([expect.stringMatching(/^PROMPT_SIMULATOR_INVALID .*prompts\/echo\.prompt\.mdx:8:5$/)]);
  });

  it('a simulator that does not exist', async () => {
    const files = conversationFiles();
    files['prompts/echo.prompt.mdx'] = SUPPORT_PROMPT().replace('./customer.prompt.mdx', './nobody.prompt.mdx');
    expect(await problems(files)).toEqual([expect.stringMatching(/^PROMPT_SIMULATOR_INVALID .*echo\.prompt\.mdx:8:5$/)]);
  });

  it('max_turns below 1', async () => {
    expect(await problems(conversationFiles(['    max_turns: 0']))).toEqual([expect.stringMatching(/^PROMPT_FRONTMATTER_INVALID .*echo\.prompt\.mdx:9:1$/)]);
  });

  it('--batch on a conversation prompt: a usage error', async () => {
    const model = scriptedModel();
    current = await fixture(conversationFiles(), model);
    await expect(current.run({ batch: {} })).rejects.toMatchObject({ code: 'USAGE_CONFLICT' });
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('an eval in both evals and turn_evals', async () => {
    const files = conversationFiles();
    files['prompts/echo.prompt.mdx'] = SUPPORT_PROMPT().replace('  conversation:', '  evals: [polite]\n  turn_evals: [polite]\n  conversation:');
    expect(await problems(files)).toEqual([expect.stringMatching(/^EVAL_TURN_AND_ROW .*echo\.prompt\.mdx:8:16$/)]);
  });
});
