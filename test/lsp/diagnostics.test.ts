import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { DATASET, PROMPT, PROJECT } from './lsp-project.js';
import { useLspSession } from './lsp-session.js';

const { start } = useLspSession();


const line = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });

describe('agentmark lsp: diagnostics, as validate reports them', () => {
  it('an eval that does not bind: at the word, with validate\'s code, message and did-you-mean', async () => {
    const lsp = await start();
    const diagnostics = await lsp.open('prompts/greet.prompt.mdx');
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      range: line(11, 10, 20),
      severity: 1,
      code: 'EVAL_NOT_FOUND',
      source: 'agentmark',
      data: { didYouMean: 'exact_match' },
    });
    expect(diagnostics[0]?.message).toMatch(/^eval "exact_mach" has no scorer; available: short_reply, polite, exact_match, /);
    expect(diagnostics[0]?.message).toMatch(/\nhint: did you mean "exact_match"\?$/);
    // The very message `validate` prints for that line.
    const validate = await runCli(['validate'], { cwd: lsp.root });
    const printed = validate.stdout.split('\n').find((l) => l.startsWith('prompts/greet.prompt.mdx:12:11: '));
    expect(printed).toBe(`prompts/greet.prompt.mdx:12:11: ${diagnostics[0]?.message.split('\n')[0]}`);
  });

  it('each bad dataset row at its line: a row that breaks input_schema (whole line) and bad JSON (at the column)', async () => {
    const lsp = await start();
    await lsp.open('prompts/greet.prompt.mdx');
    const diagnostics = await lsp.open('datasets/names.jsonl');
    expect(diagnostics.map((d) => [d.code, d.range, d.message.split('\n')[0]])).toEqual([
      ['DATASET_INPUT_SCHEMA', line(1, 0, 25), 'input does not match the prompt\'s input_schema: input must have required property "name"'],
      ['DATASET_INVALID_JSON', line(2, 1, 4), 'not valid JSON: unexpected character "b", expected a property name in double quotes'],
    ]);
  });

  it("a row's own eval that does not bind: at its row, as validate reports it", async () => {
    const prompt = PROMPT.replace('  evals: [exact_mach, polite]\n', '  evals: [polite]\n');
    const dataset = '{"input": {"name": "Ada"}}\n{"input": {"name": "Bob"}, "evals": ["contians"]}\n';
    const lsp = await start({ 'prompts/greet.prompt.mdx': prompt, 'datasets/names.jsonl': dataset });
    expect(await lsp.open('prompts/greet.prompt.mdx')).toEqual([]);
    const diagnostics = await lsp.open('datasets/names.jsonl');
    expect(diagnostics.map((d) => [d.code, d.range.start.line, d.message.split('\n')[0]?.slice(0, 30)])).toEqual([['EVAL_NOT_FOUND', 1, 'eval "contians" has no scorer;']]);
    const validate = await runCli(['validate'], { cwd: lsp.root });
    expect(validate.code).toBe(2);
    expect(validate.stdout).toContain(`datasets/names.jsonl:2:`);
    expect(validate.stdout).toContain(diagnostics[0]?.message.split('\n')[0]);
  });

  it('a conversation row the prompt cannot play (a scenario, no simulator): at its key, as validate reports it', async () => {
    const prompt = PROMPT.replace('  evals: [exact_mach, polite]\n', '  evals: [polite]\n');
    const dataset = '{"input": {"name": "Ada"}}\n{"input": {"name": "Bob"}, "scenario": {"goal": "a refund"}}\n';
    const lsp = await start({ 'prompts/greet.prompt.mdx': prompt, 'datasets/names.jsonl': dataset });
    expect(await lsp.open('prompts/greet.prompt.mdx')).toEqual([]);
    const diagnostics = await lsp.open('datasets/names.jsonl');
    expect(diagnostics.map((d) => [d.code, d.range.start.line, d.message.split('\n')[0]])).toEqual([
      ['DATASET_SCENARIO_WITHOUT_SIMULATOR', 1, 'row has a "scenario" but the prompt has no conversation.simulator to play it'],
    ]);
    const validate = await runCli(['validate'], { cwd: lsp.root });
    expect(validate.code).toBe(2);
    expect(validate.stdout).toContain('datasets/names.jsonl:2:');
    expect(validate.stdout).toContain('row has a "scenario" but the prompt has no conversation.simulator to play it');
  });

  it('agentmark.json: a schema violation at its key, and an edit there re-checks the open prompt', async () => {
    const lsp = await start();
    await lsp.open('prompts/greet.prompt.mdx');
    await lsp.open('agentmark.json');
    const broken = PROJECT.replace('"type": "boolean"', '"type": "bool"');
    const diagnostics = await lsp.change('agentmark.json', broken);
    expect(diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([['CONFIG_SCHEMA', 5]]);
    // Declaring exact_mach as a score with the exact_match scorer makes the prompt's eval bind.
    const declared = PROJECT.replace('"scores": {', '"scores": {\n    "exact_mach": { "type": "boolean", "scorer": "exact_match" },');
    const prompt = lsp.diagnosticsWhen(lsp.uri('prompts/greet.prompt.mdx'), (d) => d.length === 0);
    expect(await lsp.change('agentmark.json', declared)).toEqual([]);
    expect(await prompt).toEqual([]);
  });

  it('the config: a load error at its file', async () => {
    const lsp = await start({ 'agentmark.config.mjs': 'export default { scorrers: {} };\n' });
    const diagnostics = await lsp.open('agentmark.config.mjs');
    expect(diagnostics.map((d) => [d.code, d.range, d.message, d.data])).toEqual([
      ['CONFIG_INVALID', line(0, 0, 32), 'unknown config key "scorrers"\nhint: did you mean "scorers"?', { didYouMean: 'scorers' }],
    ]);
  });

  it('config scorers are what the loaded config registers: under a computed name, or re-exported from another file', async () => {
    const lsp = await start({
      'agentmark.config.mjs': "import { tone } from './scorers/index.mjs';\nconst NAME = ['length', 'ok'].join('_');\nexport default { scorers: { [NAME]: () => ({ passed: true }), tone } };\n",
      'scorers/index.mjs': "export { tone } from './tone.mjs';\n",
      'scorers/tone.mjs': 'export const tone = () => ({ passed: true });\n',
      'prompts/greet.prompt.mdx': PROMPT.replace('evals: [exact_mach, polite]', 'evals: [length_ok, tone, lenght_ok]'),
    });
    const diagnostics = await lsp.open('prompts/greet.prompt.mdx');
    // Only the typo is unknown, and the names it is offered are the loaded ones.
    expect(diagnostics.map((d) => [d.code, d.range])).toEqual([['EVAL_NOT_FOUND', line(11, 27, 36)]]);
    expect(diagnostics[0]?.message).toMatch(/^eval "lenght_ok" has no scorer; available: length_ok, tone, polite, /);
    const items = await lsp.request<Array<{ label: string }>>('textDocument/completion', { textDocument: { uri: lsp.uri('prompts/greet.prompt.mdx') }, position: { line: 11, character: 10 } });
    expect(items.map((i) => i.label).slice(0, 3)).toEqual(['polite', 'length_ok', 'tone']);
  });

  it('template errors and undeclared props in the body, at their words', async () => {
    const lsp = await start();
    const text = PROMPT.replace('  evals: [exact_mach, polite]\n', '  evals: [polite]\n').replace('{props.name}', '{props.nam} {nope}');
    const diagnostics = await lsp.open('prompts/greet.prompt.mdx', text);
    expect(diagnostics.find((d) => d.code === 'TEMPLATE_UNDECLARED_PROP')?.data).toEqual({ didYouMean: 'name' });
    expect(diagnostics.map((d) => [d.code, d.range])).toEqual([
      ['TEMPLATE_UNKNOWN_IDENTIFIER', line(14, 25, 29)],
      ['TEMPLATE_UNDECLARED_PROP', line(14, 19, 22)],
    ]);
  });

  it('unsaved text is what is checked: a didChange that fixes the error clears it, nothing saved', async () => {
    const lsp = await start();
    expect(await lsp.open('prompts/greet.prompt.mdx')).toHaveLength(1);
    expect(await lsp.change('prompts/greet.prompt.mdx', PROMPT.replace('exact_mach', 'exact_match'))).toEqual([]);
    expect(await lsp.change('prompts/greet.prompt.mdx', PROMPT)).toHaveLength(1);
    // A dataset fixed in the buffer: its rows are read from the buffer.
    await lsp.open('datasets/names.jsonl');
    expect(await lsp.change('datasets/names.jsonl', DATASET.split('\n')[0] + '\n')).toEqual([]);
  });
});
