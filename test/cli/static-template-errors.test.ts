/**
 * A template error no props can avoid is the prompt's error, not a row's: every command refuses
 * the prompt with exit 2 before any model call (a run used to exit 1 with every row errored
 * while `validate` said exit 2), and nothing is written.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

// The test props take the branch that is fine; the bad expression sits in the other one.
const prompt = `---
name: echo
text_config:
  model_name: openai/gpt-4o-mini
test_settings:
  dataset: ../datasets/words.jsonl
  evals: [exact]
  props:
    word: hello
---

<User>
<If condition={props.word == "__never__"}>{constructor.constructor('return process')()}</If>
{props.word}
</User>
`;
const ERROR = [
  `prompts/echo.prompt.mdx:13:44: only filters can be called; "constructor.constructor(…)" is not a filter`,
  '  hint: filters: upper, lower, capitalize, truncate, abs, join, round, replace, urlencode, dump',
  '',
].join('\n');

const server = useOpenAIServer();
let project: CliProject;
afterEach(() => project.cleanup());

describe('a static template error is an input error in every command', () => {
  it.each([
    ['run-experiment', ['run-experiment', 'prompts/echo.prompt.mdx', '--quiet']],
    ['run-experiment --no-cache', ['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--no-cache']],
    ['run-prompt', ['run-prompt', 'prompts/echo.prompt.mdx']],
    ['render', ['render', 'prompts/echo.prompt.mdx']],
    ['score', ['score', 'prompts/echo.prompt.mdx', '--outputs', 'outputs.jsonl']],
  ])('%s: exit 2, the error at its line:col, no model call, no run', async (_name, args) => {
    project = await cliProject({ 'prompts/echo.prompt.mdx': prompt, 'outputs.jsonl': '{"input": {"word": "a"}, "output": "a"}\n' });
    const result = await project.run(args, { server });
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`error: ${ERROR}`);
    expect(result.code).toBe(2);
    expect(server.requests).toHaveLength(0);
    expect(await project.runIds()).toEqual([]);
  });

  it('validate reports the same error at the same place', async () => {
    project = await cliProject({ 'prompts/echo.prompt.mdx': prompt });
    const result = await project.run(['validate', 'prompts/echo.prompt.mdx']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe(ERROR);
  });
});
