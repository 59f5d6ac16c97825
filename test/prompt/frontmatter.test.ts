import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Project } from '../../src/project/types.js';
import { loadPrompt } from '../../src/prompt/index.js';
import { loadBody, loadError, writeFiles } from './helpers.js';

async function loadText(text: string, options?: { project?: Project }) {
  const dir = await writeFiles({ 'main.prompt.mdx': text });
  return loadPrompt(join(dir, 'main.prompt.mdx'), options);
}

const root = mkdtempSync(join(tmpdir(), 'prompt-project-'));
const project = (builtInModels: string[]): Project => ({
  root, configPath: join(root, 'agentmark.json'), file: {}, promptRoot: root, scores: {}, builtInModels,
});

describe('frontmatter', () => {
  it('reads name, kind, test_settings and input_schema', async () => {
    const prompt = await loadText('---\nname: greet\ntext_config:\n  model_name: openai/gpt-4o-mini\n  temperature: 0.2\ntest_settings:\n  dataset: ./d.jsonl\n  evals: [exact]\ninput_schema:\n  type: object\nagentmark_meta:\n  anything: 1\n---\n<User>hi</User>\n');
    expect(prompt.name).toBe('greet');
    expect(prompt.kind).toBe('text');
    expect(prompt.testSettings).toEqual({ dataset: './d.jsonl', evals: ['exact'] });
    expect(prompt.inputSchema).toEqual({ type: 'object' });
    expect(prompt.render({})).toEqual({
      name: 'greet',
      messages: [{ role: 'user', content: 'hi' }],
      text_config: { model_name: 'openai/gpt-4o-mini', temperature: 0.2 },
      test_settings: { dataset: './d.jsonl', evals: ['exact'] },
      agentmark_meta: { anything: 1 },
    });
  });

  it('returns object_config for object prompts', async () => {
    const prompt = await loadText('---\nname: obj\nobject_config:\n  model_name: openai/gpt-4o\n  schema:\n    type: object\n---\n<User>hi</User>\n');
    expect(prompt.kind).toBe('object');
    expect(prompt.render({})).toEqual({
      name: 'obj',
      messages: [{ role: 'user', content: 'hi' }],
      object_config: { model_name: 'openai/gpt-4o', schema: { type: 'object' } },
      test_settings: {},
    });
  });

  it('loads image_config and speech_config prompts', async () => {
    const image = await loadText('---\nname: img\nimage_config:\n  model_name: openai/dall-e-3\n  size: 1024x1024\n---\n<ImagePrompt>a cat</ImagePrompt>\n');
    expect(image.kind).toBe('image');
    expect(image.render({})).toEqual({ name: 'img', image_config: { model_name: 'openai/dall-e-3', size: '1024x1024', prompt: 'a cat' }, test_settings: {} });
    const speech = await loadText('---\nname: tts\nspeech_config:\n  model_name: openai/tts-1\n---\n<SpeechPrompt>hello</SpeechPrompt>\n');
    expect(speech.kind).toBe('speech');
  });

  it('reads test_settings.props: null as no props', async () => {
    const prompt = await loadText('---\nname: p\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  props: null\n---\n<User>[{props.x}]</User>\n');
    expect(prompt.testSettings.props).toBeNull();
    expect(prompt.render(prompt.testSettings.props ?? {}).messages).toEqual([{ role: 'user', content: '[]' }]);
  });

  it('ends at a line that is exactly ---, not at a line that starts with it', async () => {
    const prompt = await loadText('---\nname: x\ntext_config:\n  model_name: openai/gpt-4o-mini\nagentmark_meta:\n  note: |\n    ---not the end\n---\n<User>hi</User>\n');
    expect(prompt.frontmatter.agentmark_meta).toEqual({ note: '---not the end\n' });
    expect(prompt.render({}).messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('reads empty frontmatter as an empty mapping (then asks for a config block)', async () => {
    const problems = await loadError(loadText('---\n---\n<User>hi</User>\n'));
    expect(problems.join('\n')).toContain('PROMPT_NO_CONFIG');
  });

  it('reports a YAML syntax error at the file line', async () => {
    expect(await loadError(loadText('---\nname: x\ntext_config:\n  model_name: a\n bad: [\n---\n<User>hi</User>\n'))).toEqual([
      'PROMPT_YAML main.prompt.mdx:5:1: invalid YAML in frontmatter: All mapping items must start at the same column',
    ]);
  });

  it('rejects an alias bomb', async () => {
    const bomb = '---\na: &a [1,2,3,4,5,6,7,8,9]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n---\n<User>hi</User>\n';
    expect(await loadError(loadText(bomb))).toEqual([
      'PROMPT_YAML main.prompt.mdx:2:1: invalid YAML in frontmatter: Excessive alias count indicates a resource exhaustion attack',
    ]);
  });

  it('requires a config block', async () => {
    expect(await loadError(loadText('---\nname: x\n---\n<User>hi</User>\n'))).toEqual([
      'PROMPT_NO_CONFIG main.prompt.mdx:1:1: frontmatter has no config block; expected exactly one of text_config, object_config, image_config, speech_config',
    ]);
  });

  it('rejects two config blocks, naming them', async () => {
    expect(await loadError(loadText('---\nname: x\ntext_config:\n  model_name: a/b\nobject_config:\n  model_name: a/b\n  schema: {}\n---\n<User>hi</User>\n'))).toEqual([
      'PROMPT_MULTIPLE_CONFIGS main.prompt.mdx:5:1: frontmatter has 2 config blocks (text_config, object_config); expected exactly one',
    ]);
  });

  it('says clearly that model_name is missing', async () => {
    expect(await loadError(loadText('---\nname: x\ntext_config:\n  temperature: 0.5\n---\n<User>hi</User>\n'))).toEqual([
      'PROMPT_MISSING_MODEL main.prompt.mdx:3:1: text_config.model_name is missing | hint: set it to provider/model, e.g. model_name: openai/gpt-4o-mini',
    ]);
  });

  it('reports every schema violation with its path', async () => {
    const text = '---\nname: 5\ntext_config:\n  model_name: a/b\n  temperature: hot\ntest_settings:\n  evals: foo\n  score_thresholds:\n    exact: 2\n---\n<User>hi</User>\n';
    expect(await loadError(loadText(text))).toEqual([
      'PROMPT_FRONTMATTER_INVALID main.prompt.mdx:2:1: name: must be string',
      'PROMPT_FRONTMATTER_INVALID main.prompt.mdx:5:1: text_config.temperature: must be number',
      'PROMPT_FRONTMATTER_INVALID main.prompt.mdx:7:1: test_settings.evals: must be array',
      'PROMPT_FRONTMATTER_INVALID main.prompt.mdx:9:1: test_settings.score_thresholds.exact: must be <= 1',
    ]);
  });

  it('requires name', async () => {
    expect(await loadError(loadText('---\ntext_config:\n  model_name: a/b\n---\n<User>hi</User>\n'))).toEqual([
      "PROMPT_FRONTMATTER_INVALID main.prompt.mdx:1:1: frontmatter: must have required property 'name'",
    ]);
  });

  it('checks model_name against builtInModels when the project lists any', async () => {
    expect(await loadError(loadBody('<User>hi</User>\n', {}, { project: project(['openai/gpt-4o', 'anthropic/claude-3-5-haiku']) }))).toEqual([
      'PROMPT_MODEL_NOT_ALLOWED main.prompt.mdx:4:1: model "openai/gpt-4o-mini" is not in builtInModels of agentmark.json (allowed: openai/gpt-4o, anthropic/claude-3-5-haiku)',
    ]);
    const ok = await loadBody('<User>hi</User>\n', {}, { project: project([]) });
    expect(ok.name).toBe('test');
  });
});
