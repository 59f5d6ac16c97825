import { describe, expect, it } from 'vitest';
import type { Diagnostic, Range } from '../helpers/lsp-client.js';
import { applyEdits, type TextEdit } from './apply-edits.js';
import { lspProject, PROMPT } from './lsp-project.js';
import { useLspSession } from './lsp-session.js';

const { attach } = useLspSession();

describe('agentmark lsp: the done-when of issue 42, over stdio', () => {
  it('exact_mach: a diagnostic at the word with the did-you-mean; the quick fix makes it exact_match and the diagnostic goes', async () => {
    const project = await lspProject();
    const lsp = await attach(project);
    const uri = lsp.uri('prompts/greet.prompt.mdx');
    const [diagnostic] = (await lsp.open('prompts/greet.prompt.mdx')) as [Diagnostic];
    expect(diagnostic.range).toEqual({ start: { line: 11, character: 10 }, end: { line: 11, character: 20 } });
    expect(PROMPT.split('\n')[11]?.slice(10, 20)).toBe('exact_mach');
    expect(diagnostic.message).toContain('did you mean "exact_match"?');

    const actions = await lsp.request<Array<{ title: string; edit: { changes: Record<string, TextEdit[]> } }>>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    });
    const fix = actions.find((a) => a.title === 'Change to "exact_match"');
    expect(fix?.edit.changes[uri]).toEqual([{ range: diagnostic.range, newText: 'exact_match' }]);
    const fixed = applyEdits(PROMPT, fix?.edit.changes[uri] ?? []);
    expect(fixed.split('\n')[11]).toBe('  evals: [exact_match, polite]');
    expect(await lsp.change('prompts/greet.prompt.mdx', fixed)).toEqual([]);
  });

  it('completion inside `evals: [` offers every declared score, the config scorer and the built-ins', async () => {
    const project = await lspProject({
      'agentmark.json': JSON.stringify({
        agentmarkPath: 'prompts',
        scores: {
          polite: { type: 'boolean', description: 'The reply is polite.', scorer: 'contains', options: { value: 'please' } },
          tone: { type: 'categorical', description: 'How it sounds.', categories: [{ label: 'warm', value: 1 }, { label: 'cold', value: 0 }] },
          length_ok: { type: 'numeric', min: 0, max: 1 },
        },
      }),
    });
    const lsp = await attach(project);
    const text = PROMPT.replace('  evals: [exact_mach, polite]', '  evals: [');
    await lsp.open('prompts/greet.prompt.mdx', text);
    const items = await lsp.request<Array<{ label: string; detail: string; documentation: { value: string } }>>('textDocument/completion', {
      textDocument: { uri: lsp.uri('prompts/greet.prompt.mdx') },
      position: { line: 11, character: 10 },
    });
    const labels = items.map((i) => i.label);
    expect(labels.slice(0, 4)).toEqual(['polite', 'tone', 'length_ok', 'short_reply']);
    expect(labels).toContain('exact_match');
    expect(items.find((i) => i.label === 'tone')).toMatchObject({ detail: 'categorical score' });
    expect(items.find((i) => i.label === 'tone')?.documentation.value).toContain('categories: warm = 1, cold = 0');
    expect(items.find((i) => i.label === 'exact_match')?.documentation.value).toContain('Passes when the output equals the expected output');
  });

  it('hover on the dataset path shows its row count; definition on it opens the dataset file', async () => {
    const project = await lspProject();
    const lsp = await attach(project);
    await lsp.open('prompts/greet.prompt.mdx');
    const at = { textDocument: { uri: lsp.uri('prompts/greet.prompt.mdx') }, position: { line: 10, character: 20 } };
    const hover = await lsp.request<{ contents: { value: string }; range: Range }>('textDocument/hover', at);
    expect(hover.contents.value.split('\n')[0]).toBe('**datasets/names.jsonl**: 3 rows');
    expect(hover.contents.value).toContain('1 with expected_output or labels');
    expect(hover.range).toEqual({ start: { line: 10, character: 11 }, end: { line: 10, character: 34 } });
    const locations = await lsp.request<Array<{ uri: string; range: Range }>>('textDocument/definition', at);
    expect(locations).toEqual([{ uri: lsp.uri('datasets/names.jsonl'), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }]);
  });
});
