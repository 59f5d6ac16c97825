import { describe, expect, it } from 'vitest';
import { loadBody, loadError, renderBody } from './helpers.js';

const lines = (...parts: string[]): string => `${parts.join('\n')}\n`;
const history = [
  { role: 'user', content: 'What is 2 + 2?' },
  { role: 'assistant', content: '4' },
  { role: 'user', content: 'And 10 + 2?' },
];

/** Role tags that come out of loops, branches and components, in document order (as in AgentMark). */
describe('role tags produced by loops, conditionals and components', () => {
  it('builds a chat history with ForEach and a ternary choosing User or Assistant', async () => {
    const body = lines(
      '<System>You add numbers.</System>',
      '<ForEach arr={props.history}>',
      "  {(m) => <>{m.role == 'user' ? <User>{m.content}</User> : <Assistant>{m.content}</Assistant>}</>}",
      '</ForEach>',
      '<User>{props.question}</User>',
    );
    const prompt = await loadBody(body);
    expect(prompt.warnings).toEqual([]);
    expect(prompt.render({ history, question: 'And 1 + 1?' }).messages).toEqual([
      { role: 'system', content: 'You add numbers.' },
      { role: 'user', content: 'What is 2 + 2?' },
      { role: 'assistant', content: '4' },
      { role: 'user', content: 'And 10 + 2?' },
      { role: 'user', content: 'And 1 + 1?' },
    ]);
    // No history: only the messages written outside the loop.
    expect(prompt.render({ question: 'q' }).messages).toEqual([
      { role: 'system', content: 'You add numbers.' },
      { role: 'user', content: 'q' },
    ]);
  });

  it('builds a chat history with If / ElseIf inside ForEach (multi-line role tags)', async () => {
    const body = lines(
      '<ForEach arr={props.history}>',
      '  {(item) => (',
      '    <>',
      "      <If condition={item.role == 'user'}>",
      '        <User>',
      '          Question: {item.content}',
      '        </User>',
      '      </If>',
      "      <ElseIf condition={item.role == 'assistant'}>",
      '        <Assistant>{item.content}</Assistant>',
      '      </ElseIf>',
      '    </>',
      '  )}',
      '</ForEach>',
    );
    expect(await renderBody(body, { history })).toEqual(['Question: What is 2 + 2?', '4', 'Question: And 10 + 2?']);
  });

  it('takes a role tag from an If around it', async () => {
    const body = lines("<If condition={props.persona != ''}>", '  <System>You are {props.persona}.</System>', '</If>', '<User>hi</User>');
    expect(await renderBody(body, { persona: 'terse' })).toEqual(['You are terse.', 'hi']);
    expect(await renderBody(body, { persona: '' })).toEqual(['hi']);
  });

  it('renders a ForEach whose function returns a component of role tags', async () => {
    const extra = { 'turn.mdx': "<If condition={props.m.role == 'user'}>\n<User>{props.m.content}</User>\n</If>\n<Else>\n<Assistant>{props.m.content}</Assistant>\n</Else>\n" };
    const prompt = await loadBody(lines("import Turn from './turn.mdx'", '', '<ForEach arr={props.history}>', '  {(m) => <Turn m={m} />}', '</ForEach>'), extra);
    expect(prompt.render({ history }).messages?.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('places role tags passed as children where the component prints them', async () => {
    const extra = { 'frame.mdx': '<System>Rules.</System>\n{props.children}\n<User>last</User>\n' };
    const prompt = await loadBody(lines("import Frame from './frame.mdx'", '', '<Frame>', '  <User>first</User>', '</Frame>'), extra);
    expect(prompt.render({}).messages).toEqual([
      { role: 'system', content: 'Rules.' },
      { role: 'user', content: 'first' },
      { role: 'user', content: 'last' },
    ]);
  });

  it('rejects a <System> that a loop produces after another message, at render', async () => {
    const prompt = await loadBody(lines('<User>hi</User>', '<ForEach arr={props.xs}>{(x) => <System>{x}</System>}</ForEach>'));
    expect(() => prompt.render({ xs: ['a'] })).toThrow('<System> must be the first message, but it comes after a <User>');
    expect(prompt.render({ xs: [] }).messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('rejects a role tag inside another, also through a loop', async () => {
    expect(await loadError(loadBody(lines('<User>', '<ForEach arr={props.xs}>{(x) => <Assistant>{x}</Assistant>}</ForEach>', '</User>')))).toEqual([
      'PROMPT_NESTED_ROLE main.prompt.mdx:7:33: <Assistant> cannot be inside <User> | hint: close the first tag before opening the next',
    ]);
  });

  it('rejects image and speech tags in a text prompt', async () => {
    expect(await loadError(loadBody('<ImagePrompt>a cat</ImagePrompt>\n'))).toEqual([
      'PROMPT_TAG_NOT_FOR_KIND main.prompt.mdx:6:1: <ImagePrompt> is not used in text prompts | hint: use <System>, <User>, <Assistant>',
    ]);
  });
});

describe('ForEach whose function returns one element, not a fragment', () => {
  const messages = { items: [{ role: 'user', message: 'hi' }, { role: 'assistant', message: 'yo' }, { role: 'user', message: 'bye' }] };

  // Read as the same element wrapped in <>…</>: on its own lines, one item per line.
  it('renders an <If> per item', async () => {
    const body = lines('<User>', '<ForEach arr={props.items}>', "{(item) => (<If condition={item.role == 'user'}>user: {item.message}</If>)}", '</ForEach>', 'end', '</User>');
    expect(await renderBody(body, messages)).toEqual(['user: hi\nuser: bye\nend']);
  });

  it('renders an <If> written over several lines per item', async () => {
    const body = lines('<User>', '<ForEach arr={props.items}>', '  {(item) => (', "    <If condition={item.role == 'user'}>", '      user: {item.message}', '    </If>', '  )}', '</ForEach>', '</User>');
    expect(await renderBody(body, messages)).toEqual(['user: hi\nuser: bye']);
  });

  it('renders a lowercase tag per item, inline or one per line', async () => {
    expect(await renderBody(lines('<User>', '<ForEach arr={props.w}>', '{(item) => <b>{item}</b>}', '</ForEach>', '</User>'), { w: ['a', 'b'] })).toEqual(['<b>a</b>\n<b>b</b>']);
    expect(await renderBody('<User>Tags: <ForEach arr={props.w}>{(t) => <i>{t}</i>}</ForEach>.</User>\n', { w: ['a', 'b'] })).toEqual(['Tags: <i>a</i><i>b</i>.']);
  });

  // AgentMark's own fixture (templatedx for-each-with-components) gives one paragraph per item.
  it('renders a component per item, each a paragraph', async () => {
    const extra = { 'item.mdx': '**{props.item.role}**: {props.item.message}\n' };
    const body = lines("import MessageItem from './item.mdx'", '', '<User>', '# Main', '', '<ForEach arr={props.items}>', '  {(item) => (', '    <MessageItem item={item} />', '  )}', '</ForEach>', '</User>');
    expect(await renderBody(body, messages, extra)).toEqual(['# Main\n\n**user**: hi\n\n**assistant**: yo\n\n**user**: bye']);
  });
});

describe('a component keeps the meaning of its children', () => {
  const card = { 'card.mdx': 'Items:\n{props.children}\n' };

  it('keeps a markdown list of children a flat list at the component indentation', async () => {
    const body = lines("import Card from './card.mdx'", '', '<User>', '  <Card>', '    - one', '    - two', '  </Card>', '</User>');
    expect(await renderBody(body, {}, card)).toEqual(['Items:\n- one\n- two']);
  });

  it('indents the whole output of a component placed under a list item', async () => {
    const extra = { 'list.mdx': '{props.children}\n' };
    const body = lines("import List from './list.mdx'", '', '<User>', '- top', '  <List>', '    - one', '    - two', '  </List>', '- next', '</User>');
    expect(await renderBody(body, {}, extra)).toEqual(['- top\n  - one\n  - two\n- next']);
  });

  it('keeps a ForEach list flat when the text after it is at column 0', async () => {
    const body = lines('<User>', '  <ForEach arr={props.w}>', '    {(w) => <>', '      - {w}', '    </>}', '  </ForEach>', 'Some text', '</User>');
    expect(await renderBody(body, { w: ['a', 'b'] })).toEqual(['- a\n- b\nSome text']);
  });
});
