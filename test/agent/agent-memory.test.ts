import { afterEach, describe, expect, it } from 'vitest';
import type { AgentContext } from '../../src/agent/index.js';
import type { RowResult } from '../../src/experiment/index.js';
import { agentmarkJson, echoModel, fixture, wordsDataset, type Fixture } from '../experiment/setup.js';

let current: Fixture | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

const rowsOf = (fx: Fixture): RowResult[] => fx.events.flatMap((event) => (event.type === 'row-end' ? [event.row] : [])).sort((a, b) => a.index - b.index);

/** Kept alive past the row's end, so its growth is still on the heap when the row's last sample is taken. */
const kept: number[][] = [];

const prompt = (evals: string) =>
  `---\nname: echo\ntext_config:\n  model_name: mock/echo\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  agent: hungry\n  evals: [${evals}]\n---\n\n<User>{props.word}</User>\n`;

/** Row "big" holds 5,000,000 doubles (40 MB of heap: a packed double array), the others nothing. */
async function hungry(ctx: AgentContext): Promise<string> {
  if (ctx.props['word'] === 'big') kept.push(Array.from({ length: 5_000_000 }, (_, i) => i + 0.5));
  return String(ctx.props['word']);
}

describe('peak memory of an agent row', () => {
  it('is recorded per row (exact with --concurrency 1), summarised as max/p95, and gated by max_memory_mb; prompt rows: SKIP', async () => {
    current = await fixture({
      'agentmark.json': agentmarkJson({ scores: { lean: { type: 'boolean', scorer: 'max_memory_mb', options: { max: 20 } } } }),
      'prompts/echo.prompt.mdx': prompt('lean'),
      'datasets/words.jsonl': wordsDataset(['small', 'big']),
    }, echoModel());
    const outcome = await current.run({ concurrency: 1 }, { agents: { hungry } });
    kept.length = 0;
    const [small, big] = rowsOf(current);
    expect(big?.agent?.peakMemoryMb).toBeGreaterThanOrEqual(38);
    expect(big?.agent?.memoryApproximate).toBeUndefined();
    expect(big?.evals.lean).toMatchObject({ passed: false, reason: expect.stringMatching(/^peak heap growth [\d.]+ MB exceeds max 20 MB$/) });
    expect(small?.evals.lean?.passed).toBe(true);
    expect(outcome.summary.agentMemoryMb).toMatchObject({ rows: 2, max: big?.agent?.peakMemoryMb, p95: big?.agent?.peakMemoryMb, approximate: false });

    // A prompt row runs no code of the user's: no figure, no verdict.
    await current.cleanup();
    current = await fixture({
      'agentmark.json': agentmarkJson({ scores: { lean: { type: 'boolean', scorer: 'max_memory_mb', options: { max: 20 } } } }),
      'prompts/echo.prompt.mdx': prompt('lean').replace('  agent: hungry\n', ''),
    }, echoModel());
    const plain = await current.run();
    expect(rowsOf(current).map((row) => row.evals.lean)).toEqual([1, 2, 3].map(() => ({ skipped: true, reason: 'not an agent row' })));
    expect(plain.summary.agentMemoryMb).toBeUndefined();
  });

  it('rows that ran together are marked approximate', async () => {
    let release: () => void = () => {};
    const together = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    // Both rows wait for each other, so they are certainly in flight at once.
    const waiting = async (ctx: AgentContext): Promise<string> => {
      started += 1;
      if (started === 2) release();
      await together;
      return String(ctx.props['word']);
    };
    current = await fixture({ 'prompts/echo.prompt.mdx': prompt('exact').replace('hungry', 'waiting'), 'datasets/words.jsonl': wordsDataset(['a', 'b']) }, echoModel());
    const outcome = await current.run({ concurrency: 2 }, { agents: { waiting } });
    expect(rowsOf(current).map((row) => row.agent?.memoryApproximate)).toEqual([true, true]);
    expect(outcome.summary.agentMemoryMb?.approximate).toBe(true);
  });
});
