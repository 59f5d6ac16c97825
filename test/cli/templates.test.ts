import { afterEach, describe, expect, it } from 'vitest';
import { cliProject, type CliProject } from './cli-project.js';

let project: CliProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const CONFIG_WITH_FILTERS = [
  'export default {',
  '  scorers: { length: ({ output }: { output: unknown }) => ({ score: String(output).length }) },',
  '  filters: {',
  '    shout: (value: unknown, times: unknown = 1) => `${String(value).toUpperCase()}${"!".repeat(Number(times))}`,',
  '  },',
  '};',
  '',
].join('\n');

const IMAGE_PROMPT = '---\nname: pic\nimage_config:\n  model_name: openai/dall-e-3\n  size: 1024x1024\ntest_settings:\n  props:\n    subject: a fox\n---\n\n<ImagePrompt>A watercolour of {props.subject}.</ImagePrompt>\n';

describe('templates through the CLI', () => {
  it("validate and render know the project's own filters; an unknown one is reported with line:col and a did-you-mean", async () => {
    project = await cliProject({
      'agentmark.config.ts': CONFIG_WITH_FILTERS,
      'prompts/loud.prompt.mdx': '---\nname: loud\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  props:\n    word: hi\n---\n\n<User>{shout(props.word, 2)}</User>\n',
    });
    const render = await project.run(['render', 'prompts/loud.prompt.mdx']);
    expect(render.code).toBe(0);
    expect(JSON.parse(render.stdout)).toMatchObject({ messages: [{ role: 'user', content: 'HI!!' }] });
    expect((await project.run(['validate', 'prompts/loud.prompt.mdx'])).code).toBe(0);

    await project.write('prompts/typo.prompt.mdx', '---\nname: typo\ntext_config:\n  model_name: openai/gpt-4o-mini\n---\n\n<User>\n<If condition={false}>{shoutt(props.word)}</If>\n</User>\n');
    const result = await project.run(['validate', 'prompts/typo.prompt.mdx']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('prompts/typo.prompt.mdx:8:24: unknown filter "shoutt"\n  hint: did you mean "shout"?\n');
  });

  it('validate reports a filter in the config that is not a function', async () => {
    project = await cliProject({ 'agentmark.config.ts': 'export default { filters: { shout: "loud" } };\n' });
    const result = await project.run(['validate']);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('filters.shout must be a function (got "loud")');
  });

  it('renders an image prompt as AgentMark does, validates it, and refuses to run it as an experiment (exit 2)', async () => {
    project = await cliProject({ 'prompts/pic.prompt.mdx': IMAGE_PROMPT });
    const render = await project.run(['render', 'prompts/pic.prompt.mdx']);
    expect(render.code).toBe(0);
    expect(JSON.parse(render.stdout)).toEqual({
      name: 'pic',
      image_config: { model_name: 'openai/dall-e-3', size: '1024x1024', prompt: 'A watercolour of a fox.' },
      test_settings: { props: { subject: 'a fox' } },
    });
    expect((await project.run(['validate', 'prompts/pic.prompt.mdx'])).code).toBe(0);
    const run = await project.run(['run-experiment', 'prompts/pic.prompt.mdx']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('image experiments are not supported yet');
  });
});
