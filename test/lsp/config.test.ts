import { afterEach, describe, expect, it } from 'vitest';
import { LspClient, type Range } from '../helpers/lsp-client.js';
import { runCli } from '../helpers/run-cli.js';
import type { TextEdit } from './apply-edits.js';
import { lspProject, PROMPT, CONFIG } from './lsp-project.js';

let cleanup: (() => Promise<void>) | undefined;
let client: LspClient | undefined;
afterEach(async () => {
  await client?.stop();
  await cleanup?.();
  client = undefined;
  cleanup = undefined;
});

async function start(files: Record<string, string> = {}): Promise<LspClient> {
  const project = await lspProject(files);
  cleanup = project.cleanup;
  client = await LspClient.start(project.dir);
  return client;
}

const line = (line: number, start: number, end: number): Range => ({ start: { line, character: start }, end: { line, character: end } });
const EVALS = PROMPT.replace('evals: [exact_mach, polite]', 'evals: [polite, tone, brief, short_reply]');

/** One registration in each style, and the name `polite` where no key is: a comment, a string, a template, a regex. */
const STYLES = [
  '// polite: the scorers below; a comment is no key', // 0
  'const shared = {',
  '  polite: () => ({ passed: true }), // polite: again',
  '};',
  "const note = `polite: ${'polite'} /* polite: */`;",
  'const pattern = /polite:/;', // 5
  'export default {',
  '  scorers: {',
  '    ...shared,',
  "    'tone': () => ({ passed: pattern.test(note) }),",
  '    "brief"() { return { passed: true }; },', // 10
  '    short_reply,',
  '  },',
  '};',
  'function short_reply() { return { passed: true }; }',
  '',
].join('\n');

describe('agentmark lsp: the config scorers, found in its tokens', () => {
  it('definition of each eval: a spread object, a quoted key, a quoted method, a shorthand', async () => {
    const lsp = await start({ 'agentmark.config.mjs': STYLES, 'prompts/greet.prompt.mdx': EVALS });
    expect(await lsp.open('prompts/greet.prompt.mdx')).toEqual([]);
    const uri = lsp.uri('prompts/greet.prompt.mdx');
    const define = (character: number) => lsp.request<Array<{ uri: string; range: Range }>>('textDocument/definition', { textDocument: { uri }, position: { line: 11, character } });
    const config = lsp.uri('agentmark.config.mjs');
    expect(await define(12)).toEqual([
      { uri: lsp.uri('agentmark.json'), range: line(5, 5, 11) },
      { uri: config, range: line(2, 2, 8) },
    ]);
    expect(await define(19)).toEqual([{ uri: config, range: line(9, 5, 9) }]);
    expect(await define(25)).toEqual([{ uri: config, range: line(10, 5, 10) }]);
    expect(await define(35)).toEqual([{ uri: config, range: line(11, 4, 15) }]);
  });

  it('rename edits the key only: not the comments, the string, the template or the regex naming it', async () => {
    const lsp = await start({ 'agentmark.config.mjs': STYLES, 'prompts/greet.prompt.mdx': EVALS });
    await lsp.open('prompts/greet.prompt.mdx');
    const edit = await lsp.request<{ changes: Record<string, TextEdit[]> }>('textDocument/rename', {
      textDocument: { uri: lsp.uri('prompts/greet.prompt.mdx') },
      position: { line: 11, character: 12 },
      newName: 'courteous',
    });
    expect(edit.changes[lsp.uri('agentmark.config.mjs')]).toEqual([{ range: line(2, 2, 8), newText: 'courteous' }]);
  });

  it("`scorers` given as a const of the file (by shorthand, or under a quoted key with the const's type)", async () => {
    const shorthand = 'const scorers = {\n  /* tone */ tone: () => ({ passed: true }),\n};\nexport default { scorers };\n';
    const typed = "type S = Record<string, () => { passed: boolean }>;\nconst mine: S = {\n  tone: () => ({ passed: true }),\n};\nexport default { 'scorers': mine };\n";
    for (const [file, text, at] of [
      ['agentmark.config.mjs', shorthand, line(1, 13, 17)],
      ['agentmark.config.ts', typed, line(2, 2, 6)],
    ] as const) {
      const lsp = await start({ 'agentmark.config.mjs': file === 'agentmark.config.mjs' ? text : '', ...(file === 'agentmark.config.ts' ? { 'agentmark.config.ts': text } : {}), 'prompts/greet.prompt.mdx': EVALS.replace('evals: [polite, tone, brief, short_reply]', 'evals: [tone]') });
      expect(await lsp.open('prompts/greet.prompt.mdx')).toEqual([]);
      const found = await lsp.request<Array<{ uri: string; range: Range }>>('textDocument/definition', { textDocument: { uri: lsp.uri('prompts/greet.prompt.mdx') }, position: { line: 11, character: 11 } });
      expect(found).toEqual([{ uri: lsp.uri(file), range: at }]);
      await lsp.stop();
      await cleanup?.();
      client = undefined;
      cleanup = undefined;
    }
  });
});

describe("agentmark lsp: the config's unsaved text", () => {
  it('a syntax error is reported as it is typed, as validate reports it saved, and goes when the buffer is fixed, nothing saved', async () => {
    const lsp = await start();
    expect(await lsp.open('agentmark.config.mjs')).toEqual([]);
    const broken = CONFIG.replace('length < 200 }),', 'length < 200 }');
    const diagnostics = await lsp.change('agentmark.config.mjs', broken);
    expect(diagnostics.map((d) => [d.code, d.range.start, d.message])).toEqual([['CONFIG_SYNTAX', { line: 3, character: 2 }, 'syntax error: Unexpected token, expected ","']]);
    expect(await lsp.change('agentmark.config.mjs', CONFIG)).toEqual([]);

    // validate says the same of the file saved with that text.
    await lsp.change('agentmark.config.mjs', broken);
    const saved = await lsp.save('agentmark.config.mjs', broken);
    expect(saved.map((d) => [d.code, d.range.start, d.message])).toEqual([['CONFIG_SYNTAX', { line: 3, character: 2 }, 'syntax error: Unexpected token, expected ","']]);
    const validate = await runCli(['validate'], { cwd: lsp.root });
    expect(validate.stdout).toContain('agentmark.config.mjs:4:3: syntax error: Unexpected token, expected ","');
    // Fixed in the buffer, the stale error of the saved file is not shown.
    expect(await lsp.change('agentmark.config.mjs', CONFIG)).toEqual([]);
  });

  it('saved, an ES module config (.mjs) is loaded again: the new scorer binds the open prompt and is offered', async () => {
    // node's import() caches an .mjs by URL for the life of the process: the server must load the new text.
    const lsp = await start({ 'prompts/greet.prompt.mdx': PROMPT.replace('exact_mach', 'tone') });
    const diagnostics = await lsp.open('prompts/greet.prompt.mdx');
    expect(diagnostics.map((d) => [d.code, d.range])).toEqual([['EVAL_NOT_FOUND', line(11, 10, 14)]]);
    const uri = lsp.uri('prompts/greet.prompt.mdx');
    const offered = async () => (await lsp.request<Array<{ label: string; detail?: string }>>('textDocument/completion', { textDocument: { uri }, position: { line: 11, character: 10 } })).filter((i) => i.detail === 'config scorer').map((i) => i.label);
    expect(await offered()).toEqual(['short_reply']);
    const registered = CONFIG.replace('  scorers: {\n', '  scorers: {\n    tone: () => ({ passed: true }),\n');
    await lsp.open('agentmark.config.mjs');
    const prompt = lsp.diagnosticsWhen(uri, (d) => d.length === 0);
    await lsp.save('agentmark.config.mjs', registered);
    expect(await prompt).toEqual([]);
    expect(await offered()).toEqual(['tone', 'short_reply']);
    // And again: each save is a new load (a scorer removed is gone, and the eval no longer binds).
    const removed = lsp.diagnosticsWhen(uri, (d) => d.length === 1);
    await lsp.save('agentmark.config.mjs', CONFIG);
    expect((await removed).map((d) => d.code)).toEqual(['EVAL_NOT_FOUND']);
    expect(await offered()).toEqual(['short_reply']);
  });

  it('saved, the config is loaded again: a scorer registered in it binds the open prompt', async () => {
    const lsp = await start({ 'agentmark.config.mjs': '', 'agentmark.config.ts': CONFIG, 'prompts/greet.prompt.mdx': PROMPT.replace('exact_mach', 'tone') });
    expect((await lsp.open('prompts/greet.prompt.mdx')).map((d) => d.code)).toEqual(['EVAL_NOT_FOUND']);
    const registered = CONFIG.replace('  scorers: {\n', '  scorers: {\n    tone: () => ({ passed: true }),\n');
    await lsp.open('agentmark.config.ts');
    // Typed (unsaved), the config is parsed, not run: the prompt still does not bind.
    expect(await lsp.change('agentmark.config.ts', registered)).toEqual([]);
    const prompt = lsp.diagnosticsWhen(lsp.uri('prompts/greet.prompt.mdx'), (d) => d.length === 0);
    await lsp.save('agentmark.config.ts', registered);
    expect(await prompt).toEqual([]);
  });
});
