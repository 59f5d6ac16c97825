import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadPrompt } from '../../src/prompt/index.js';
import { loadBody, loadError, renderBody, writeFiles } from './helpers.js';

describe('role tags', () => {
  it('produces messages in document order, trimmed, markdown kept verbatim', async () => {
    const body = [
      '<System>',
      'You are {props.role}.',
      '',
      '# Rules',
      '',
      '- be brief',
      '  - nested *item*',
      '',
      '```json',
      '{"a": 1}',
      '```',
      '</System>',
      '',
      '<User>Hello {props.name}!</User>',
      '<Assistant>',
      '  Indented answer',
      '    with a deeper line',
      '</Assistant>',
      '<User>again</User>',
      '',
    ].join('\n');
    expect(await renderBody(body, { role: 'a helper', name: 'Ann' })).toEqual([
      'You are a helper.\n\n# Rules\n\n- be brief\n  - nested *item*\n\n```json\n{"a": 1}\n```',
      'Hello Ann!',
      'Indented answer\n  with a deeper line',
      'again',
    ]);
  });

  it('renders a CRLF file like an LF one', async () => {
    const dir = await writeFiles({
      'crlf.prompt.mdx': '---\r\nname: crlf\r\ntext_config:\r\n  model_name: a/b\r\n---\r\n<User>\r\n  Hi {props.name}\r\n  <If condition={false}>\r\n    no\r\n  </If>\r\n  Bye\r\n</User>\r\n',
    });
    const prompt = await loadPrompt(join(dir, 'crlf.prompt.mdx'));
    expect(prompt.render({ name: 'Ann' }).messages).toEqual([{ role: 'user', content: 'Hi Ann\r\nBye' }]);
  });

  it('returns role names', async () => {
    const prompt = await loadBody('<System>s</System>\n<User>u</User>\n<Assistant>a</Assistant>\n');
    expect(prompt.render({}).messages).toEqual([
      { role: 'system', content: 's' },
      { role: 'user', content: 'u' },
      { role: 'assistant', content: 'a' },
    ]);
  });

  it('warns about text outside role tags and makes no message of it', async () => {
    const prompt = await loadBody('stray words\n\n<User>hi</User>\n\n{/* fine */}\n<b>also stray</b>\n');
    expect(prompt.render({}).messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(prompt.warnings.map((w) => `${w.line}:${w.column}: ${w.message}`)).toEqual([
      '6:1: content outside <System>, <User> or <Assistant> is ignored',
      '11:1: content outside <System>, <User> or <Assistant> is ignored',
    ]);
  });

  it('rejects <System> after another message', async () => {
    expect(await loadError(loadBody('<User>hi</User>\n<System>sys</System>\n'))).toEqual([
      'PROMPT_SYSTEM_NOT_FIRST main.prompt.mdx:7:1: <System> must be the first message, but it comes after a <User>',
    ]);
  });

  it('rejects a role tag inside another', async () => {
    expect(await loadError(loadBody('<User>\n<Assistant>x</Assistant>\n</User>\n'))).toEqual([
      'PROMPT_NESTED_ROLE main.prompt.mdx:7:1: <Assistant> cannot be inside <User> | hint: close the first tag before opening the next',
    ]);
  });
});

describe('attachments', () => {
  it('turns user content into a parts array', async () => {
    const body = [
      '<User>',
      'Describe these.',
      '<ImageAttachment image={props.url} mimeType="image/png" />',
      '<ImageAttachment image="https://x.test/b.jpg" />',
      '<FileAttachment data={props.pdf} mimeType="application/pdf" />',
      '</User>',
      '',
    ].join('\n');
    expect(await renderBody(body, { url: 'https://x.test/a.png', pdf: 'JVBERi0=' })).toEqual([
      [
        { type: 'text', text: 'Describe these.' },
        { type: 'image', image: 'https://x.test/a.png', mimeType: 'image/png' },
        { type: 'image', image: 'https://x.test/b.jpg' },
        { type: 'file', data: 'JVBERi0=', mimeType: 'application/pdf' },
      ],
    ]);
  });

  it('rejects an attachment outside <User>', async () => {
    expect(await loadError(loadBody('<Assistant>\n<ImageAttachment image="x.png" />\n</Assistant>\n'))).toEqual([
      'PROMPT_ATTACHMENT_OUTSIDE_USER main.prompt.mdx:7:1: <ImageAttachment> is only allowed inside <User>, not <Assistant>',
    ]);
    expect(await loadError(loadBody('<User>hi</User>\n<FileAttachment data="x" mimeType="text/plain" />\n'))).toEqual([
      'PROMPT_ATTACHMENT_OUTSIDE_USER main.prompt.mdx:7:1: <FileAttachment> is only allowed inside <User>',
    ]);
  });

  it('requires the attachment attributes', async () => {
    const prompt = await loadBody('<User>\n<FileAttachment data="x" />\n</User>\n');
    expect(() => prompt.render({})).toThrow('<FileAttachment> needs a mimeType="…" attribute');
  });
});
