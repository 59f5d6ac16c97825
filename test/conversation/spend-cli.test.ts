/**
 * What a run spent when some of a conversation's turns came from the response cache (a rerun
 * that lets conversations go further, or `--resume` restarting one from its cached turns): the
 * row keeps the conversation's tokens, whatever answered each turn (as a cached single-turn row
 * keeps its call's), but the run's tokens, cost and `tokens_max` gate count only the calls made
 * now, as they do for single-turn rows.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIRequestInfo } from '../helpers/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SCRIPT = ['I was charged twice', 'Order 1234', 'Thank you'];

/** Fixed usage, so the sums below are by hand: an assistant answer is 11 tokens, a simulator reply 102. */
function responder(request: OpenAIRequestInfo): { text: string; usage: { input: number; output: number } } {
  if (request.model === 'sim-user') {
    const said = request.messagesText.split('\n').filter((line) => line.startsWith('assistant:')).length;
    return { text: SCRIPT[said] ?? '###STOP###', usage: { input: 100, output: 2 } };
  }
  return { text: `re: ${request.lastUserText}`, usage: { input: 10, output: 1 } };
}

const prompt = (maxTurns: number): string =>
  [
    '---',
    'name: support',
    'text_config:',
    '  model_name: openai/gpt-4o-mini',
    'test_settings:',
    '  dataset: talks.jsonl',
    '  tokens_max: 700',
    '  conversation:',
    '    simulator: ./customer.prompt.mdx',
    `    max_turns: ${maxTurns}`,
    '---',
    '<System>You help {props.customer}.</System>',
    '',
  ].join('\n');

interface Output {
  rows: Array<{ usage: { totalTokens: number }; costUsd: number | null; cached: boolean; conversation: { turns: Array<{ cached: boolean }>; endedBy: string } }>;
  summary: { usage: { totalTokens: number }; costUsd?: number; simulator: { calls: number; usage: { totalTokens: number } }; gates: Array<{ name: string; passed: boolean; message: string }> };
}

describe("a conversation's cached turns in the run's spend", () => {
  it('count in the row\'s tokens, not in the run\'s tokens, cost or tokens_max gate', async () => {
    const made = await tempProject({
      'agentmark.json': JSON.stringify({ version: '2.0.0', mdxVersion: '1.0', agentmarkPath: '.' }),
      // Per million tokens: a dollar each, so a run's cost is its paid tokens / 1e6.
      'agentmark.config.ts': "export default { prices: { 'openai/gpt-4o-mini': { input: 1, output: 1 }, 'openai/sim-user': { input: 1, output: 1 } } };\n",
      'prompts/support.prompt.mdx': prompt(2),
      'prompts/customer.prompt.mdx': '---\nname: customer\ntext_config:\n  model_name: openai/sim-user\n---\n<System>You are a customer. Goal: {props.goal}</System>\n',
      'prompts/talks.jsonl': `${[0, 1, 2].map((i) => JSON.stringify({ input: { customer: `C${i}` }, scenario: { goal: `refund ${i}` } })).join('\n')}\n`,
    });
    const server = await startOpenAIServer({ handler: responder });
    cleanups.push(made.cleanup, () => server.close());
    const run = async (): Promise<Output & { code: number | null }> => {
      const result = await runCli(['run-experiment', 'prompts/support.prompt.mdx', '--format', 'json', '--quiet'], {
        cwd: made.dir,
        env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test-spend' },
        timeoutMs: 60_000,
      });
      expect(result.stderr).toBe('');
      return { ...(JSON.parse(result.stdout) as Output), code: result.code };
    };

    // max_turns 2: per row 2 simulator calls (2 × 102) and 2 answers (2 × 11), all live.
    const first = await run();
    expect(server.requests).toHaveLength(12);
    expect(first.summary.usage.totalTokens).toBe(3 * (2 * 102 + 2 * 11));
    expect(first.code).toBe(0);

    // max_turns 4: the first 2 user turns and their answers come from the cache; live are the
    // third user turn and the stop (2 × 102) and the third answer (11).
    await writeFile(join(made.dir, 'prompts/support.prompt.mdx'), prompt(4));
    const second = await run();
    expect(server.requests).toHaveLength(12 + 3 * 3);
    for (const row of second.rows) {
      expect(row.conversation.endedBy).toBe('stop');
      expect(row.conversation.turns.map((turn) => turn.cached)).toEqual([true, true, true, true, false, false]);
      expect(row.cached).toBe(false);
      // The conversation's own tokens: its 3 answers, cached or not.
      expect(row.usage.totalTokens).toBe(3 * 11);
      // Its cost: only the answer paid now ($1 per million tokens).
      expect(row.costUsd).toBeCloseTo(11 / 1e6, 12);
    }
    expect(second.summary.simulator.calls).toBe(3 * 4);
    expect(second.summary.simulator.usage.totalTokens).toBe(3 * 2 * 102);
    expect(second.summary.usage.totalTokens).toBe(3 * (2 * 102 + 11));
    expect(second.summary.costUsd).toBeCloseTo((3 * (2 * 102 + 11)) / 1e6, 12);
    expect(second.summary.gates.find((gate) => gate.name === 'tokens_max')).toEqual({ name: 'tokens_max', passed: true, message: 'tokens 645 <= 700' });
    expect(second.code).toBe(0);
  }, 120_000);
});
