/**
 * What a run spent when some of a conversation's turns came from the response cache (a rerun
 * that lets conversations go further, or `--resume` restarting one from its cached turns): the
 * row keeps the conversation's tokens, whatever answered each turn (as a cached single-turn row
 * keeps its call's), but the run's tokens, cost and `tokens_max` gate count only the calls made
 * now, as they do for single-turn rows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { conversationProject, supportPrompt } from './cli-project.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Output {
  rows: Array<{ usage: { totalTokens: number }; costUsd: number | null; cached: boolean; conversation: { turns: Array<{ cached: boolean }>; endedBy: string } }>;
  summary: { usage: { totalTokens: number }; costUsd?: number; simulator: { calls: number; usage: { totalTokens: number } }; gates: Array<{ name: string; passed: boolean; message: string }> };
}

describe("a conversation's cached turns in the run's spend", () => {
  it('count in the row\'s tokens, not in the run\'s tokens, cost or tokens_max gate', async () => {
    const prompt = (maxTurns: number): string => supportPrompt(maxTurns, ['  tokens_max: 700']);
    const project = await conversationProject(3, prompt(2), {
      // Per million tokens: a dollar each, so a run's cost is its paid tokens / 1e6.
      'agentmark.config.ts': "export default { prices: { 'openai/gpt-4o-mini': { input: 1, output: 1 }, 'openai/sim-user': { input: 1, output: 1 } } };\n",
    });
    cleanups.push(() => project.cleanup());
    const { server } = project;
    const run = async (): Promise<Output & { code: number | null }> => {
      const result = await project.cli(['run-experiment', 'prompts/support.prompt.mdx', '--format', 'json', '--quiet']);
      expect(result.stderr).toBe('');
      return { ...(JSON.parse(result.stdout) as Output), code: result.code };
    };

    // max_turns 2: per row 2 simulator calls (2 × 102 tokens) and 2 answers (2 × 11), all live.
    const first = await run();
    expect(server.requests).toHaveLength(12);
    expect(first.summary.usage.totalTokens).toBe(3 * (2 * 102 + 2 * 11));
    expect(first.code).toBe(0);

    // max_turns 4: the first 2 user turns and their answers come from the cache; live are the
    // third user turn and the stop (2 × 102) and the third answer (11).
    await project.setPrompt(prompt(4));
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
