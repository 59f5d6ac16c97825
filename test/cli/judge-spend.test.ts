import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { echoResponder, useOpenAIServer, type OpenAIReply } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

/** LLM-judge calls are paid for like main calls: counted per row, in the totals and the gates. */

const scores = {
  exact: { type: 'boolean', scorer: 'exact_match' },
  polite: { type: 'boolean', scorer: 'llm_judge', description: 'Is the reply polite?' },
};
const prompt = (limits = ''): string =>
  `---\nname: echo\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [exact, polite]\n${limits}---\n\n<User>{props.word}</User>\n`;

/** gpt-4o-mini's built-in price, USD per million tokens. */
const PRICE = { input: 0.15, output: 0.6 };
const usd = (input: number, output: number): number => (input * PRICE.input + output * PRICE.output) / 1_000_000;

interface Billed {
  calls: number;
  input: number;
  output: number;
}
const none = (): Billed => ({ calls: 0, input: 0, output: 0 });

const server = useOpenAIServer();
let project: CliProject;
/** What the server billed: main calls (no schema) and judge calls (a JSON schema), counted as answered. */
let billed: { main: Billed; judge: Billed };

beforeEach(() => {
  billed = { main: none(), judge: none() };
  let n = 0;
  server.setHandler((request) => {
    n += 1;
    const judge = request.schema !== undefined;
    // Different figures per call, so a sum that drops or doubles a call cannot match by chance.
    const usage = judge ? { input: 100 + n, output: 7 + n } : { input: 11 + n, output: 3 };
    const side = judge ? billed.judge : billed.main;
    side.calls += 1;
    side.input += usage.input;
    side.output += usage.output;
    return { ...echoResponder(request), usage } as OpenAIReply;
  });
});
afterEach(() => project.cleanup());

async function setUp(limits?: string): Promise<void> {
  project = await cliProject({
    'prompts/echo.prompt.mdx': prompt(limits),
    // Every row passes `exact`: the exit code then tells only of the gates under test.
    'datasets/words.jsonl': ['alpha', 'beta', 'gamma'].map((word) => JSON.stringify({ input: { word }, expected_output: word })).join('\n') + '\n',
  });
  const json = JSON.parse(await project.read('agentmark.json')) as Record<string, unknown>;
  await project.write('agentmark.json', JSON.stringify({ ...json, scores }));
}

const run = (args: string[]) => project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', ...args], { server });

interface Spend {
  calls: number;
  cached: number;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number };
  costUsd?: number;
  latencyMs: number;
}
interface JsonReport {
  summary: { usage: { inputTokens: number; outputTokens: number; totalTokens: number }; costUsd?: number; judge?: Spend; gates: Array<{ name: string; passed: boolean; message: string }> };
  rows: Array<{ index: number; usage: { totalTokens: number } | null; costUsd: number | null; judge: Spend | null }>;
}

describe('judge spend', () => {
  it('a run with an LLM-judge eval reports the tokens and cost the server billed, main and judge calls together', async () => {
    await setUp();
    const result = await run(['--format', 'json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(billed.main.calls).toBe(3);
    expect(billed.judge.calls).toBe(3);
    const report = JSON.parse(result.stdout) as JsonReport;
    const input = billed.main.input + billed.judge.input;
    const output = billed.main.output + billed.judge.output;
    expect(report.summary.usage).toEqual({ inputTokens: input, outputTokens: output, totalTokens: input + output });
    expect(report.summary.costUsd).toBeCloseTo(usd(input, output), 12);
    const judge = report.summary.judge;
    expect(judge).toBeDefined();
    expect({ ...judge, latencyMs: undefined, costUsd: undefined }).toEqual({
      calls: 3,
      cached: 0,
      usage: { inputTokens: billed.judge.input, outputTokens: billed.judge.output, totalTokens: billed.judge.input + billed.judge.output },
      latencyMs: undefined,
      costUsd: undefined,
    });
    expect(judge?.costUsd).toBeCloseTo(usd(billed.judge.input, billed.judge.output), 12);
    expect(judge?.latencyMs).toBeGreaterThanOrEqual(0);
    // Per row: the model call in `usage`, its judge call in `judge`; together, the whole bill.
    const perRow = report.rows.reduce((sum, row) => sum + (row.usage?.totalTokens ?? 0) + (row.judge?.usage.totalTokens ?? 0), 0);
    expect(perRow).toBe(input + output);
    for (const row of report.rows) expect(row.judge?.calls).toBe(1);
  });

  it('judge answers from the response cache cost nothing and are counted as cached', async () => {
    await setUp();
    expect((await run(['--format', 'json'])).code).toBe(0);
    const requests = server.requests.length;
    const result = await run(['--format', 'json']);
    expect(result.code).toBe(0);
    expect(server.requests.length).toBe(requests);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.summary.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(report.summary.judge).toEqual({ calls: 3, cached: 3, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, costUsd: 0, latencyMs: 0 });
    for (const row of report.rows) expect(row.judge).toEqual({ calls: 1, cached: 1, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, costUsd: 0, latencyMs: 0 });
  });

  it('tokens_max and cost_max_usd count the judge calls too', async () => {
    // Main calls alone stay under both limits; with the judge calls, both are over.
    await setUp('  tokens_max: 200\n  cost_max_usd: 0.00005\n');
    const result = await run(['--format', 'json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as JsonReport;
    const mainTokens = billed.main.input + billed.main.output;
    const judgeTokens = billed.judge.input + billed.judge.output;
    expect(mainTokens).toBeLessThan(200);
    expect(usd(billed.main.input, billed.main.output)).toBeLessThan(0.00005);
    const gates = Object.fromEntries(report.summary.gates.map((gate) => [gate.name, gate]));
    expect(gates.tokens_max).toEqual({ name: 'tokens_max', passed: false, message: `tokens ${mainTokens + judgeTokens} (judge ${judgeTokens}) > 200` });
    const cost = usd(billed.main.input + billed.judge.input, billed.main.output + billed.judge.output);
    const judgeCost = usd(billed.judge.input, billed.judge.output);
    expect(gates.cost_max_usd).toEqual({ name: 'cost_max_usd', passed: false, message: `cost $${cost.toFixed(6)} (judge $${judgeCost.toFixed(6)}) > $0.00005` });
  });

  it('the summary shows the judge calls on a line of their own', async () => {
    await setUp();
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx'], { server });
    expect(result.code).toBe(0);
    const judgeTokens = billed.judge.input + billed.judge.output;
    const cost = usd(billed.judge.input, billed.judge.output);
    const text = `${result.stdout}${result.stderr}`;
    expect(text).toContain(`  Judge:    3 calls, ${judgeTokens.toLocaleString('en-US')} tokens, $${cost.toFixed(4)}\n`);
    const input = billed.main.input + billed.judge.input;
    const output = billed.main.output + billed.judge.output;
    expect(text).toContain(`  Tokens:   ${input} in / ${output} out (main and judge calls)\n`);
    // The markdown report, from the stored run: the same figures.
    const markdown = await project.run(['runs', 'show', 'latest', '--format', 'markdown']);
    const total = usd(input, output);
    expect(markdown.stdout).toContain(
      `· tokens ${input} in / ${output} out · cost $${total.toFixed(4)} (main and judge calls; judge: 3 calls, ${judgeTokens} tokens, $${cost.toFixed(4)})\n`,
    );
  });
});
