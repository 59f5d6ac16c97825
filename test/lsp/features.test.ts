import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Diagnostic, Range } from '../helpers/lsp-client.js';
import { runCli } from '../helpers/run-cli.js';
import { applyEdits, type TextEdit } from './apply-edits.js';
import { PROMPT, PROJECT } from './lsp-project.js';
import { useLspSession } from './lsp-session.js';

const { start } = useLspSession();


type Item = { label: string; detail?: string; documentation?: { value: string } };
const pos = (line: number, character: number) => ({ line, character });

describe('agentmark lsp: completion', () => {
  it('frontmatter keys with their documentation, from the frontmatter schema', async () => {
    const lsp = await start();
    const text = PROMPT.replace('  dataset: ../datasets/names.jsonl\n', '  dataset: ../datasets/names.jsonl\n  \n');
    await lsp.open('prompts/greet.prompt.mdx', text);
    const items = await lsp.request<Item[]>('textDocument/completion', { textDocument: { uri: lsp.uri('prompts/greet.prompt.mdx') }, position: pos(11, 2) });
    const labels = items.map((i) => i.label);
    expect(labels).toEqual(expect.arrayContaining(['dataset', 'evals', 'props', 'timeout_seconds', 'cost_max_usd']));
    expect(items.find((i) => i.label === 'cost_max_usd')?.documentation?.value).toBe('Run-level gate: the run fails when the total cost of live calls exceeds this.');
  });

  it('{props.…} from input_schema, role tags and components, model ids, dataset paths, scorer options', async () => {
    const lsp = await start({ 'datasets/more.jsonl': '{"input": {"name": "Cy"}}\n' });
    const text = PROMPT.replace('Hello {props.name}', 'Hello {props.');
    await lsp.open('prompts/greet.prompt.mdx', text);
    const uri = lsp.uri('prompts/greet.prompt.mdx');
    const complete = (line: number, character: number) => lsp.request<Item[]>('textDocument/completion', { textDocument: { uri }, position: pos(line, character) });
    const props = await complete(14, 19);
    expect(props.map((i) => [i.label, i.detail])).toEqual([['name', '{"type":"string"}']]);
    expect(props[0]?.documentation?.value).toBe('first rows: `"Ada"`');
    expect((await complete(14, 1)).map((i) => i.label)).toEqual(expect.arrayContaining(['System', 'User', 'Assistant', 'If', 'ForEach']));
    expect((await complete(3, 14)).map((i) => i.label).slice(0, 2)).toEqual(['openai/gpt-4o-mini', 'openai/gpt-4o']);
    expect((await complete(10, 11)).map((i) => i.label)).toEqual(['../datasets/more.jsonl', '../datasets/names.jsonl']);

    const projectText = PROJECT.replace('"options": { "value": "please" }', '"options": {  }');
    await lsp.open('agentmark.json', projectText);
    const line = projectText.split('\n').findIndex((l) => l.includes('"options": {  }'));
    const column = (projectText.split('\n')[line] ?? '').indexOf('{  }') + 2;
    const options = await lsp.request<Item[]>('textDocument/completion', { textDocument: { uri: lsp.uri('agentmark.json') }, position: pos(line, column) });
    expect(options.map((i) => i.label)).toEqual(['value', 'ignoreCase']);
  });
});

describe('agentmark lsp: hover and definition', () => {
  it('hover on a score, a prop and a model', async () => {
    const lsp = await start();
    await lsp.open('prompts/greet.prompt.mdx');
    const uri = lsp.uri('prompts/greet.prompt.mdx');
    const hover = async (line: number, character: number) =>
      (await lsp.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri }, position: pos(line, character) }))?.contents.value;
    expect(await hover(11, 24)).toBe('**polite**: boolean score (agentmark.json)\n\nThe reply is polite.\n\nscorer: `contains` with options `{"value":"please"}`');
    expect(await hover(14, 15)).toBe('**props.name**: `{"type":"string"}`\n\nfirst rows: `"Ada"`');
    expect(await hover(3, 20)).toBe('**openai/gpt-4o-mini**\n\nprovider: openai\n\nprice: $0.15 in / $0.6 out per million tokens');
  });

  it('definition of an eval: its score schema in agentmark.json and its scorer in the config; of a component: the file', async () => {
    const lsp = await start({
      'prompts/greet.prompt.mdx': PROMPT.replace('evals: [exact_mach, polite]', 'evals: [short_reply, polite]').replace('---\n\n<User>', "---\nimport Sign from './sign.mdx'\n\n<User>"),
      'prompts/sign.mdx': 'Regards\n',
    });
    await lsp.open('prompts/greet.prompt.mdx');
    const uri = lsp.uri('prompts/greet.prompt.mdx');
    const define = (line: number, character: number) => lsp.request<Array<{ uri: string; range: Range }>>('textDocument/definition', { textDocument: { uri }, position: pos(line, character) });
    expect(await define(11, 24)).toEqual([{ uri: lsp.uri('agentmark.json'), range: { start: pos(5, 5), end: pos(5, 11) } }]);
    expect(await define(11, 12)).toEqual([{ uri: lsp.uri('agentmark.config.mjs'), range: { start: pos(2, 4), end: pos(2, 15) } }]);
    expect(await define(13, 22)).toEqual([{ uri: lsp.uri('prompts/sign.mdx'), range: { start: pos(0, 0), end: pos(0, 0) } }]);
  });
});

describe('agentmark lsp: code actions, rename, code lens', () => {
  it('"declare this score in agentmark.json": the edit applied makes validate pass', async () => {
    const lsp = await start({ 'datasets/names.jsonl': '{"input": {"name": "Ada"}}\n' });
    const [diagnostic] = (await lsp.open('prompts/greet.prompt.mdx', PROMPT.replace('exact_mach', 'kindness'))) as [Diagnostic];
    expect(diagnostic.code).toBe('EVAL_NOT_FOUND');
    const actions = await lsp.request<Array<{ title: string; edit: { changes: Record<string, TextEdit[]> } }>>('textDocument/codeAction', {
      textDocument: { uri: lsp.uri('prompts/greet.prompt.mdx') },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    });
    const declare = actions.find((a) => a.title === 'Declare the score "kindness" in agentmark.json');
    const edits = declare?.edit.changes[lsp.uri('agentmark.json')] ?? [];
    const declared = applyEdits(PROJECT, edits);
    expect(JSON.parse(declared).scores.kindness).toEqual({ type: 'boolean', description: '' });
    // Declared without a scorer it still needs one: add a scorer to make it bind, then validate agrees.
    await writeFile(join(lsp.root, 'agentmark.json'), declared.replace('"description": "" }', '"description": "", "scorer": "contains", "options": { "value": "Ada" } }'));
    await writeFile(join(lsp.root, 'prompts/greet.prompt.mdx'), PROMPT.replace('exact_mach', 'kindness'));
    expect((await runCli(['validate'], { cwd: lsp.root })).code).toBe(0);
  });

  it('"add this prop to input_schema": the edit applied clears the diagnostic', async () => {
    const lsp = await start();
    const text = PROMPT.replace('exact_mach', 'polite').replace('{props.name}', '{props.name} from {props.city}');
    const [diagnostic] = (await lsp.open('prompts/greet.prompt.mdx', text)) as [Diagnostic];
    expect(diagnostic.code).toBe('TEMPLATE_UNDECLARED_PROP');
    const actions = await lsp.request<Array<{ title: string; edit: { changes: Record<string, TextEdit[]> } }>>('textDocument/codeAction', {
      textDocument: { uri: lsp.uri('prompts/greet.prompt.mdx') },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    });
    const add = actions.find((a) => a.title === 'Add "city" to input_schema');
    const fixed = applyEdits(text, add?.edit.changes[lsp.uri('prompts/greet.prompt.mdx')] ?? []);
    expect(fixed.split('\n').slice(6, 9)).toEqual(['  properties:', '    name: { type: string }', '    city: { type: string }']);
    expect(await lsp.change('prompts/greet.prompt.mdx', fixed)).toEqual([]);
  });

  it('rename of a score: agentmark.json, every prompt (open or not) and the config', async () => {
    const other = PROMPT.replace('name: greet', 'name: other').replace('evals: [exact_mach, polite]', 'evals:\n    - polite\n    - short_reply');
    const lsp = await start({ 'prompts/other.prompt.mdx': other, 'agentmark.config.mjs': 'export default {\n  scorers: {\n    polite: () => ({ passed: true }),\n  },\n};\n' });
    await lsp.open('prompts/greet.prompt.mdx');
    const edit = await lsp.request<{ changes: Record<string, TextEdit[]> }>('textDocument/rename', {
      textDocument: { uri: lsp.uri('prompts/greet.prompt.mdx') },
      position: pos(11, 24),
      newName: 'courteous',
    });
    expect(Object.keys(edit.changes).sort()).toEqual([lsp.uri('agentmark.config.mjs'), lsp.uri('agentmark.json'), lsp.uri('prompts/greet.prompt.mdx'), lsp.uri('prompts/other.prompt.mdx')].sort());
    expect(applyEdits(PROMPT, edit.changes[lsp.uri('prompts/greet.prompt.mdx')] ?? []).split('\n')[11]).toBe('  evals: [exact_mach, courteous]');
    expect(applyEdits(other, edit.changes[lsp.uri('prompts/other.prompt.mdx')] ?? [])).toContain('evals:\n    - courteous\n    - short_reply');
    expect(JSON.parse(applyEdits(PROJECT, edit.changes[lsp.uri('agentmark.json')] ?? [])).scores).toHaveProperty('courteous');
    expect(edit.changes[lsp.uri('agentmark.config.mjs')]).toEqual([{ range: { start: pos(2, 4), end: pos(2, 10) }, newText: 'courteous' }]);
  });

  it('code lenses: Run experiment and Render row 0; with a stored run, Open last run and its pass rate per eval above evals:', async () => {
    const lsp = await start();
    await lsp.open('prompts/greet.prompt.mdx');
    const uri = lsp.uri('prompts/greet.prompt.mdx');
    type Lens = { range: Range; command: { title: string; command: string; arguments: unknown[] } };
    const lenses = await lsp.request<Lens[]>('textDocument/codeLens', { textDocument: { uri } });
    expect(lenses.map((l) => [l.range.start.line, l.command.title, l.command.command])).toEqual([
      [9, 'Run experiment', 'agentmark.runExperiment'],
      [9, 'Render row 0', 'agentmark.renderRow'],
    ]);
    const run = join(lsp.root, '.agentmark', 'runs', '20260101T000000Z-abcd');
    await mkdir(run, { recursive: true });
    const summary = { rows: 4, errored: 0, cached: 0, pregenerated: 0, evals: [{ name: 'polite', count: 4, errored: 0, verdictCount: 4, passedCount: 3, passRate: 0.75 }] };
    await writeFile(join(run, 'manifest.json'), JSON.stringify({ id: '20260101T000000Z-abcd', prompt: { path: 'prompts/greet.prompt.mdx', name: 'greet', sha256: 'x' }, model: 'openai/gpt-4o-mini', settings: {}, options: {}, startedAt: '2026-01-01T00:00:00Z', status: 'completed', summary }));
    const after = await lsp.request<Lens[]>('textDocument/codeLens', { textDocument: { uri } });
    expect(after.map((l) => [l.range.start.line, l.command.title])).toEqual([
      [9, 'Run experiment'],
      [9, 'Render row 0'],
      [9, 'Open last run'],
      [11, 'last run: polite 75%'],
    ]);

    // Open last run: the server starts the viewer and asks the editor to open that run's page.
    const open = after.find((l) => l.command.title === 'Open last run');
    const result = await lsp.request<{ runId: string; url: string }>('workspace/executeCommand', { command: open?.command.command, arguments: open?.command.arguments });
    expect(result.runId).toBe('20260101T000000Z-abcd');
    expect(result.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#\/runs\/20260101T000000Z-abcd$/);
    expect(lsp.shown).toEqual([{ uri: result.url, external: true }]);
    const page = await fetch(result.url.replace(/#.*$/, ''));
    expect(page.status).toBe(200);
    const runs = (await (await fetch(new URL('/api/runs', result.url))).json()) as unknown;
    expect(JSON.stringify(runs)).toContain('20260101T000000Z-abcd');
  });
});
