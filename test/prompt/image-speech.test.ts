import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPrompt } from '../../src/prompt/index.js';
import { loadError, renderError, writeFiles } from './helpers.js';

async function loadText(text: string, extra: Record<string, string> = {}) {
  const dir = await writeFiles({ 'main.prompt.mdx': text, ...extra });
  return loadPrompt(join(dir, 'main.prompt.mdx'));
}

const IMAGE = '---\nname: image-prop-only\nimage_config:\n  model_name: openai/dall-e-3\n  num_images: 1\n  size: "1024x1024"\n  aspect_ratio: "1:1"\n';
const SPEECH = '---\nname: speech\nspeech_config:\n  model_name: openai/tts-1\n  voice: "nova"\n  speed: 1.0\n  output_format: "mp3"\n';

/** AgentMark's render output for image and speech prompts: the text goes inside the config, no messages. */
describe('<ImagePrompt> and <SpeechPrompt>', () => {
  it('renders image_config.prompt from <ImagePrompt>', async () => {
    const prompt = await loadText(`${IMAGE}---\n\n<ImagePrompt>{props.text}</ImagePrompt>\n`);
    expect(prompt.warnings).toEqual([]);
    expect(prompt.render({ text: 'a red fox in snow' })).toEqual({
      name: 'image-prop-only',
      image_config: { model_name: 'openai/dall-e-3', num_images: 1, size: '1024x1024', aspect_ratio: '1:1', prompt: 'a red fox in snow' },
      test_settings: {},
    });
  });

  it('renders speech_config.text from <SpeechPrompt> and instructions from <System>', async () => {
    const prompt = await loadText(`${SPEECH}agentmark_meta:\n  id: 7\n---\n\n<System>\nRead calmly.\n</System>\n\n<SpeechPrompt>\n  Hello {props.name}.\n  <If condition={props.vip}>Welcome back.</If>\n</SpeechPrompt>\n`);
    expect(prompt.render({ name: 'Ada', vip: true })).toEqual({
      name: 'speech',
      speech_config: { model_name: 'openai/tts-1', voice: 'nova', speed: 1, output_format: 'mp3', text: 'Hello Ada.\nWelcome back.', instructions: 'Read calmly.' },
      test_settings: {},
      agentmark_meta: { id: 7 },
    });
  });

  it('gives empty instructions without <System>, and takes the tag from a component', async () => {
    const prompt = await loadText(`${SPEECH}---\nimport Say from './say.mdx'\n\n<Say what={props.w} />\n`, { 'say.mdx': '<SpeechPrompt>{props.what}</SpeechPrompt>\n' });
    expect(prompt.render({ w: 'hi' })).toMatchObject({ speech_config: { text: 'hi', instructions: '' } });
  });

  it('rejects role tags an image prompt does not use, and <User> in a speech prompt', async () => {
    expect(await loadError(loadText(`${IMAGE}---\n<System>x</System>\n<ImagePrompt>cat</ImagePrompt>\n`))).toEqual([
      'PROMPT_TAG_NOT_FOR_KIND main.prompt.mdx:9:1: <System> is not used in image prompts | hint: use <ImagePrompt>',
    ]);
    expect(await loadError(loadText(`${SPEECH}---\n<User>x</User>\n`))).toEqual([
      'PROMPT_TAG_NOT_FOR_KIND main.prompt.mdx:9:1: <User> is not used in speech prompts | hint: use <System>, <SpeechPrompt>',
    ]);
  });

  it('offers the tags of the prompt kind for an unknown tag', async () => {
    expect(await loadError(loadText(`${IMAGE}---\n<ImagePrompt>a <Colour /> cat</ImagePrompt>\n`))).toEqual([
      'PROMPT_UNKNOWN_TAG main.prompt.mdx:9:16: unknown tag <Colour> | hint: known tags: ImagePrompt, If, ElseIf, Else, ForEach, Raw',
    ]);
  });

  it('says when the prompt text is missing, empty or given twice', async () => {
    const missing = await loadText(`${IMAGE}---\nJust text.\n`);
    expect(missing.warnings.map((w) => `${w.line}:${w.column}: ${w.message}`)).toEqual(['9:1: content outside <ImagePrompt> is ignored']);
    expect(renderError(() => missing.render({}))).toEqual([
      'TEMPLATE_EMPTY_PROMPT main.prompt.mdx: the image prompt rendered no text: <ImagePrompt> is missing | hint: write the image description inside <ImagePrompt>…</ImagePrompt>',
    ]);
    const empty = await loadText(`${SPEECH}---\n<SpeechPrompt>{props.t}</SpeechPrompt>\n`);
    expect(renderError(() => empty.render({}))).toEqual([
      'TEMPLATE_EMPTY_PROMPT main.prompt.mdx:9:1: the speech prompt rendered no text: <SpeechPrompt> is empty | hint: write the text to speak inside <SpeechPrompt>…</SpeechPrompt>',
    ]);
    const twice = await loadText(`${IMAGE}---\n<ImagePrompt>a</ImagePrompt>\n<ImagePrompt>b</ImagePrompt>\n`);
    expect(renderError(() => twice.render({}))).toEqual([
      'TEMPLATE_DUPLICATE_PROMPT main.prompt.mdx:10:1: this image prompt rendered 2 <ImagePrompt> tags; it takes one',
    ]);
  });

  it('accepts input_schema written for any JSON Schema draft', async () => {
    for (const draft of ['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2019-09/schema', 'http://json-schema.org/draft-04/schema#']) {
      const prompt = await loadText(`${IMAGE}input_schema:\n  $schema: "${draft}"\n  type: object\n  properties:\n    text:\n      type: string\n  required: [text]\n---\n<ImagePrompt>{props.text}</ImagePrompt>\n`);
      expect(prompt.inputSchema).toMatchObject({ $schema: draft });
    }
  });
});
