import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPrompt } from '../../src/experiment/validate-project.js';
import { lastBodyParse } from '../../src/prompt/incremental-body.js';
import { parseTemplate } from '../../src/prompt/parse-template.js';
import { loadProject } from '../../src/project/index.js';
import { setSourceOverlay } from '../../src/source-overlay.js';
import { describeError, writeFiles } from './helpers.js';

/**
 * The language server parses an open buffer in part (src/prompt/incremental-body.ts): only the
 * top-level blocks an edit touched. Each edit below is checked both ways, in part (the buffer as
 * the source overlay) and whole (the same text, no overlay), and the two must be the same: the
 * IR byte for byte, every error with its code, message, line:column and hint.
 */
const BODY = [
  "import Greeting from './greeting.mdx'",
  '',
  '<System>',
  'You are helpful. Today is {props.day}.',
  '</System>',
  '',
  '# Heading',
  '',
  'First paragraph about {props.topic}',
  'continues here.',
  '',
  'Second paragraph.',
  '',
  '<User>',
  'Hello {props.name}, <Greeting who={props.name} />',
  '<If condition={props.vip}>',
  'VIP {props.name}',
  '</If>',
  '</User>',
  '<User>',
  'Again {props.topic}.',
  '</User>',
  '',
  '- item one {props.a}',
  '- item two',
  '',
  '<Assistant>',
  'Reply {props.name ? "yes" : "no"}.',
  '</Assistant>',
  '',
].join('\n');

/** Each edit applied to the text before it; the comment says what it does to the blocks. */
const EDITS: Array<[string, (text: string) => string]> = [
  ['a word in a paragraph', (t) => t.replace('Second paragraph.', 'Second section.')],
  ['a line inserted (every later block moves a line)', (t) => t.replace('continues here.', 'continues here.\nand here {props.day}.')],
  ["a closing tag deleted (the User's children run on: an error)", (t) => t.replace('</If>\n</User>\n<User>', '</If>\n\n<User>')],
  ['the closing tag back', (t) => t.replace('</If>\n\n<User>', '</If>\n</User>\n<User>')],
  ['the blank line between two paragraphs removed (they become one)', (t) => t.replace('and here {props.day}.\n\nSecond', 'and here {props.day}.\nSecond')],
  ['the blank line back', (t) => t.replace('and here {props.day}.\nSecond', 'and here {props.day}.\n\nSecond')],
  ['an unclosed brace (an error from there to the end)', (t) => t.replace('Again {props.topic}.', 'Again {props.topic.')],
  ['the brace closed', (t) => t.replace('Again {props.topic.', 'Again {props.topic}.')],
  ['a heading made a paragraph that runs into the next one', (t) => t.replace('# Heading\n\n', 'Heading\n')],
  ['a setext underline under a paragraph (it becomes a heading)', (t) => t.replace('Second section.\n', 'Second section.\n---\n')],
  ['an undeclared prop in the last block', (t) => t.replace('Reply {props.name', 'Reply {props.nmae}{props.name')],
  ['raw text with braces', (t) => t.replace('- item two', '- item two <Raw>{ "a": 1 }</Raw>')],
  ['an edit inside the raw text', (t) => t.replace('{ "a": 1 }', '{ "a": 2, "b": [} }')],
  ['two role blocks joined on one line', (t) => t.replace('</User>\n<User>', '</User><User>')],
  ['and apart again', (t) => t.replace('</User><User>', '</User>\n<User>')],
  ['a block deleted', (t) => t.replace('<User>\nAgain {props.topic}.\n</User>\n', '')],
  ['an expression holding statements (an error of the IR, not the parser)', (t) => t.replace('Today is {props.day}.', 'Today is {a = 1; b}.')],
  ['mended', (t) => t.replace('Today is {a = 1; b}.', 'Today is {props.day}.')],
  ['text typed at the very start', (t) => `Intro {props.day}\n\n${t}`],
  ['text typed at the very end', (t) => `${t}Outro {props.a}\n`],
  ['a link definition (read by every block: parsed whole)', (t) => t.replace('Second section.', 'Second [x] section.\n\n[x]: https://example.com')],
  ['the definition gone', (t) => t.replace('Second [x] section.\n\n[x]: https://example.com', 'Second section.')],
  ['a list item indented under the one before', (t) => t.replace('- item two', '  continued\n- item two')],
  ['the whole text replaced', () => BODY],
  ['CRLF line endings throughout', (t) => t.replace(/\n/g, '\r\n')],
  ['a word changed in a CRLF text', (t) => t.replace('Second paragraph.', 'Second part.')],
  ['a CRLF line inserted', (t) => t.replace('Second part.', 'Second part.\r\nmore {props.topic}')],
];

/** The IR as JSON (a regular expression literal's value printed), key order included. */
function irJson(template: { nodes: unknown; esm: unknown; bodyNodes: unknown }): string {
  return JSON.stringify({ nodes: template.nodes, esm: template.esm, bodyNodes: template.bodyNodes }, (_key, value: unknown) => (value instanceof RegExp ? String(value) : value));
}

async function outcome<T>(run: () => Promise<T>): Promise<{ ok: T } | { errors: string[] }> {
  try {
    return { ok: await run() };
  } catch (error) {
    return { errors: describeError(error) };
  }
}

afterEach(() => setSourceOverlay(undefined));

describe('the incremental parse of an open buffer', () => {
  it('gives the IR and the errors of a whole parse, for edits within and across block boundaries', async () => {
    const file = '/nowhere/main.prompt.mdx';
    let text = BODY;
    const kinds: string[] = [];
    for (const [what, edit] of [['the buffer opened', (t: string) => t] as [string, (t: string) => string], ...EDITS]) {
      text = edit(text);
      setSourceOverlay({ text: (f) => (f === file ? text : undefined) });
      const part = await outcome(async () => irJson(await parseTemplate(file, text, 0)));
      if (lastBodyParse(file) !== 'part') kinds.push(what);
      setSourceOverlay(undefined);
      const whole = await outcome(async () => irJson(await parseTemplate(file, text, 0)));
      expect(part, what).toEqual(whole);
    }
    // Every other edit was parsed in part. These were not: the first parse, the texts that do not
    // parse (an error is always a whole parse's), a link definition (every block reads it), and a
    // change of every line ending (the edit's bounds cut a CRLF).
    expect(kinds).toEqual([
      'the buffer opened',
      "a closing tag deleted (the User's children run on: an error)",
      'an unclosed brace (an error from there to the end)',
      'an expression holding statements (an error of the IR, not the parser)',
      'a link definition (read by every block: parsed whole)',
      'the definition gone',
      'CRLF line endings throughout',
    ]);
  });

  it("gives validate's check of the prompt: the same errors at the same places, for the same edits", async () => {
    const frontmatter = [
      '---',
      'name: main',
      'text_config:',
      '  model_name: openai/gpt-4o-mini',
      'input_schema:',
      '  type: object',
      '  properties:',
      '    day: { type: string }',
      '    topic: { type: string }',
      '    name: { type: string }',
      '    vip: { type: boolean }',
      '    a: { type: string }',
      '---',
      '',
    ].join('\n');
    const dir = await writeFiles({ 'agentmark.json': '{ "agentmarkPath": "." }\n', 'main.prompt.mdx': frontmatter + BODY, 'greeting.mdx': 'Hi {props.who}\n' });
    const file = join(dir, 'main.prompt.mdx');
    const project = await loadProject(dir);
    const check = async () => {
      const checked = await checkPrompt(project, undefined, file);
      return { errors: checked.errors.flatMap((e) => describeError(e)), warnings: checked.warnings, render: checked.prompt?.render({ day: 'd', topic: 't', name: 'n', vip: true, a: 'a' }) };
    };
    let body = BODY;
    let text = '';
    const steps: Array<[string, () => string]> = [
      ['the buffer opened', () => frontmatter + body],
      ...EDITS.map(([what, edit]): [string, () => string] => [what, () => frontmatter + (body = edit(body))]),
      ['a frontmatter edit', () => text.replace('name: main', 'name: main2')],
    ];
    for (const [what, next] of steps) {
      text = next();
      setSourceOverlay({ text: (f) => (f === file ? text : undefined) });
      const part = await check();
      setSourceOverlay(undefined);
      await writeFile(file, text);
      const whole = await check();
      expect(part, what).toEqual(whole);
    }
    expect(await readFile(file, 'utf8')).toBe(text);
  });
});
