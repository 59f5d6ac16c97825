import { describe, expect, it } from 'vitest';
import { loadBody, loadError, renderBody } from './helpers.js';

const lines = (...parts: string[]): string => `${parts.join('\n')}\n`;

describe('If / ElseIf / Else', () => {
  const chain = lines(
    '<User>',
    '  Start',
    '  <If condition={props.level > 2}>',
    '    High',
    '  </If>',
    '  <ElseIf condition={props.level == 2}>',
    '    Medium',
    '  </ElseIf>',
    '  <Else>',
    '    Low',
    '  </Else>',
    '  End',
    '</User>',
  );

  it.each([
    [3, 'Start\nHigh\nEnd'],
    [2, 'Start\nMedium\nEnd'],
    [1, 'Start\nLow\nEnd'],
  ])('level %s renders %j', async (level, expected) => {
    expect(await renderBody(chain, { level })).toEqual([expected]);
  });

  it('takes a branch only when the condition is exactly true', async () => {
    const body = '<User>[<If condition={props.c}>taken</If><Else>not</Else>]</User>\n';
    for (const c of ['yes', 1, {}, [1], null, undefined]) {
      expect(await renderBody(body, { c })).toEqual(['[not]']);
    }
    expect(await renderBody(body, { c: true })).toEqual(['[taken]']);
  });

  it('starts a new chain at every If', async () => {
    const body = lines('<User>', '<If condition={true}>one</If>', '<If condition={true}>two</If>', '<Else>three</Else>', '</User>');
    expect(await renderBody(body)).toEqual(['one\ntwo']);
  });

  it('removes the lines of a false block', async () => {
    const body = lines('<User>', 'a', '<If condition={false}>', 'hidden', '</If>', 'b', '</User>');
    expect(await renderBody(body)).toEqual(['a\nb']);
  });

  it('keeps markdown inside a block', async () => {
    const body = lines('<System>', '<If condition={true}>', '## Title', '', '- one', '- two', '</If>', '</System>');
    expect(await renderBody(body)).toEqual(['## Title\n\n- one\n- two']);
  });

  it('rejects an Else with no If before it', async () => {
    expect(await loadError(loadBody(lines('<User>', '<Else>x</Else>', '</User>')))).toEqual([
      'PROMPT_ORPHAN_BRANCH main.prompt.mdx:7:1: <Else> must directly follow an <If> or <ElseIf>',
    ]);
  });

  it('requires a condition', async () => {
    expect(await loadError(loadBody(lines('<User>', '<If>x</If>', '</User>')))).toEqual([
      'PROMPT_MISSING_ATTRIBUTE main.prompt.mdx:7:1: <If> needs a condition={…} attribute',
    ]);
  });
});

describe('ForEach', () => {
  const body = lines(
    '<User>',
    '  Items:',
    '  <ForEach arr={props.items}>',
    '    {(item, index) => (',
    '      <>',
    '        {index + 1}. {item.name} ({item.price})',
    '      </>',
    '    )}',
    '  </ForEach>',
    '  Done',
    '</User>',
  );

  it('renders the fragment once per element, with item and index', async () => {
    expect(await renderBody(body, { items: [{ name: 'pen', price: 2 }, { name: 'ink', price: 5 }] })).toEqual([
      'Items:\n1. pen (2)\n2. ink (5)\nDone',
    ]);
  });

  it('renders nothing for a missing, null or non-array arr', async () => {
    for (const items of [undefined, null, 'abc', { a: 1 }]) {
      expect(await renderBody(body, { items })).toEqual(['Items:\nDone']);
    }
  });

  it('works inline and nested, with If inside', async () => {
    const inline = lines(
      '<User>',
      'Tags: <ForEach arr={props.tags}>{(tag) => <>#{tag} </>}</ForEach>',
      '<ForEach arr={props.groups}>',
      '  {(group) => (',
      '    <>',
      '      {group.name}:',
      '      <ForEach arr={group.members}>',
      '        {(m) => (',
      '          <>',
      '            <If condition={m.lead}>',
      '              * {m.name} (lead)',
      '            </If>',
      '            <Else>',
      '              - {m.name}',
      '            </Else>',
      '          </>',
      '        )}',
      '      </ForEach>',
      '    </>',
      '  )}',
      '</ForEach>',
      '</User>',
    );
    const props = {
      tags: ['a', 'b'],
      groups: [
        { name: 'G1', members: [{ name: 'x', lead: true }, { name: 'y' }] },
        { name: 'G2', members: [{ name: 'z' }] },
      ],
    };
    expect(await renderBody(inline, props)).toEqual(['Tags: #a #b \nG1:\n* x (lead)\n- y\nG2:\n- z']);
  });

  it('rejects a child that is not a function returning JSX', async () => {
    expect(await loadError(loadBody(lines('<User>', '<ForEach arr={props.items}>', '{props.x}', '</ForEach>', '</User>')))).toEqual([
      'PROMPT_FOREACH_CHILD main.prompt.mdx:7:1: <ForEach> needs one child function returning JSX | hint: write {(item, index) => <>…</>}',
    ]);
  });
});

describe('Raw, pass-through tags and unknown tags', () => {
  it('parses a <Raw> inside a <Raw>, keeping the inner tags as literal text', async () => {
    const body = lines('<User>', 'Write templates like:', '<Raw>', 'Say <Raw>{props.x}</Raw> to show {braces}.', '</Raw>', 'and <Raw>a <Raw>{b}</Raw> c</Raw> inline', '</User>');
    expect(await renderBody(body)).toEqual(['Write templates like:\nSay <Raw>{props.x}</Raw> to show {braces}.\nand a <Raw>{b}</Raw> c inline']);
  });

  it('emits Raw content literally, braces included', async () => {
    const body = lines('<User>', 'Example:', '<Raw>', '{ "name": "{props.name}" }', '</Raw>', 'inline <Raw>{x}</Raw> too', '</User>');
    expect(await renderBody(body, { name: 'Ann' })).toEqual(['Example:\n{ "name": "{props.name}" }\ninline {x} too']);
  });

  it('passes lowercase tags through with expressions rendered', async () => {
    const body = lines('<User>', '<examples kind={props.kind}>', '  <example>{props.a}</example>', '</examples>', 'a <b>bold</b> word<br/>', '</User>');
    expect(await renderBody(body, { kind: 'k', a: 'A' })).toEqual([
      '<examples kind="k">\n  <example>A</example>\n</examples>\na <b>bold</b> word<br/>',
    ]);
  });

  it('names an unknown capitalised tag and lists the known ones', async () => {
    expect(await loadError(loadBody(lines('<User>', '<Foreach arr={props.x}>{(i) => <>{i}</>}</Foreach>', '</User>')))).toEqual([
      'PROMPT_UNKNOWN_TAG main.prompt.mdx:7:1: unknown tag <Foreach> | hint: did you mean "ForEach"? known tags: System, User, Assistant, If, ElseIf, Else, ForEach, Raw, ImageAttachment, FileAttachment',
    ]);
  });

  it('reports an unclosed tag and an unclosed brace with their position', async () => {
    expect(await loadError(loadBody(lines('<User>', 'hello')))).toEqual([
      'PROMPT_MDX_SYNTAX main.prompt.mdx:6:1: Expected a closing tag for `<User>`',
    ]);
    expect(await loadError(loadBody(lines('<User>', 'hello {props.x', '</User>')))).toEqual([
      'PROMPT_MDX_SYNTAX main.prompt.mdx:7:7: Unexpected end of file in expression, expected a corresponding closing brace for `{` | hint: write literal braces inside <Raw>…</Raw>',
    ]);
  });
});
