import { describe, expect, it } from 'vitest';
import { PROMPT } from './lsp-project.js';
import { useLspSession } from './lsp-session.js';

const { start } = useLspSession();


type Item = { label: string; detail?: string; insertText?: string; documentation?: { value: string } };
const pos = (line: number, character: number) => ({ line, character });

/** A config registering a provider (`local`) and a price for one of its models. */
const PROVIDER_CONFIG = `export default {
  providers: { local: (id) => ({ id }) },
  prices: { 'local/tiny': { input: 1, output: 2 } },
  scorers: {
    short_reply: ({ output }) => ({ passed: String(output).length < 200 }),
  },
};
`;

describe('agentmark lsp: test_settings.models', () => {
  const flow = PROMPT.replace('  evals: [exact_mach, polite]', '  models: [openai/gpt-4o, local/tiny]\n  evals: [exact_mach, polite]');
  const block = PROMPT.replace('  evals: [exact_mach, polite]', '  models:\n    - local/tiny\n    - \n  evals: [exact_mach, polite]');

  it("completion offers the model_name key's models: built-ins, config prices, registered providers", async () => {
    const lsp = await start({ 'agentmark.config.mjs': PROVIDER_CONFIG });
    await lsp.open('prompts/greet.prompt.mdx', flow);
    const uri = lsp.uri('prompts/greet.prompt.mdx');
    const complete = (line: number, character: number) => lsp.request<Item[]>('textDocument/completion', { textDocument: { uri }, position: pos(line, character) });
    const ownModel = (await complete(3, 14)).map((i) => i.label);
    const inFlow = (await complete(11, 12)).map((i) => i.label);
    expect(inFlow).toEqual(ownModel);
    expect(inFlow.slice(0, 3)).toEqual(['openai/gpt-4o-mini', 'openai/gpt-4o', 'local/tiny']);
    expect(inFlow).toContain('local/');
    expect(inFlow).toContain('openai/gpt-4.1-mini');

    await lsp.change('prompts/greet.prompt.mdx', block);
    expect((await complete(13, 6)).map((i) => i.label)).toEqual(ownModel);
  });

  it('hover on a model of the list: provider (registered or not) and price', async () => {
    const lsp = await start({ 'agentmark.config.mjs': PROVIDER_CONFIG });
    await lsp.open('prompts/greet.prompt.mdx', flow);
    const uri = lsp.uri('prompts/greet.prompt.mdx');
    const hover = async (text: string, line: number, character: number) => {
      await lsp.change('prompts/greet.prompt.mdx', text);
      return (await lsp.request<{ contents: { value: string }; range: unknown } | null>('textDocument/hover', { textDocument: { uri }, position: pos(line, character) }));
    };
    expect(await hover(flow, 11, 14)).toEqual({
      contents: { kind: 'markdown', value: '**openai/gpt-4o**\n\nprovider: openai\n\nprice: $2.5 in / $10 out per million tokens' },
      range: { start: pos(11, 11), end: pos(11, 24) },
    });
    expect((await hover(flow, 11, 28))?.contents.value).toBe('**local/tiny**\n\nprovider: local (registered in the config)\n\nprice: $1 in / $2 out per million tokens');
    expect((await hover(block, 12, 9))?.contents.value).toBe('**local/tiny**\n\nprovider: local (registered in the config)\n\nprice: $1 in / $2 out per million tokens');
    // `models` elsewhere than under test_settings names no model.
    expect(await hover(flow.replace('test_settings:', 'meta:\n  models: [openai/gpt-4o]\ntest_settings:'), 10, 14)).toBeNull();
  });
});

describe("agentmark lsp: a dataset row's evals", () => {
  it('completion inside a row\'s "evals" (a name or an entry\'s "name") offers what test_settings.evals offers', async () => {
    const rows = [
      '{"input": {"name": "Ada"}, "evals": [""]}',
      '{"input": {"name": "Bob"}, "evals": [{"name": "co"}]}',
      '{"input": {"name": "Cy"}, "evals": [ ], "expected_output": "x"}',
      '{"input": {"name": ""}}',
      '',
    ].join('\n');
    const lsp = await start({ 'datasets/names.jsonl': rows });
    await lsp.open('prompts/greet.prompt.mdx');
    await lsp.open('datasets/names.jsonl');
    const inPrompt = await lsp.request<Item[]>('textDocument/completion', { textDocument: { uri: lsp.uri('prompts/greet.prompt.mdx') }, position: pos(11, 10) });
    const complete = (line: number, character: number) => lsp.request<Item[]>('textDocument/completion', { textDocument: { uri: lsp.uri('datasets/names.jsonl') }, position: pos(line, character) });

    const inString = await complete(0, 38);
    expect(inString).toEqual(inPrompt);
    expect(inString.slice(0, 2).map((i) => [i.label, i.detail])).toEqual([
      ['polite', 'boolean score'],
      ['short_reply', 'config scorer'],
    ]);
    expect(inString.find((i) => i.label === 'contains')?.documentation?.value).toMatch(/^\*\*contains\*\* \(built-in scorer\)\n\n/);
    expect(await complete(1, 48)).toEqual(inPrompt);
    // Outside a string, the name is inserted quoted.
    const bare = await complete(2, 37);
    expect(bare.map((i) => i.label)).toEqual(inPrompt.map((i) => i.label));
    expect(bare[0]?.insertText).toBe('"polite"');
    // Not in an evals list: nothing.
    expect(await complete(3, 20)).toEqual([]);
    expect(await complete(2, 59)).toEqual([]);
  });
});
