import { afterEach, describe, expect, it } from 'vitest';
import type { RowResult } from '../../src/experiment/index.js';
import type { EvalParams } from '../../src/scoring/types.js';
import { summarizeTurns } from '../../src/conversation/index.js';
import { fixture, type Fixture } from '../experiment/setup.js';
import { conversationFiles, scriptedModel, SUPPORT_PROMPT, talks } from './setup.js';

let current: Fixture | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

const rowsOf = (fx: Fixture): RowResult[] =>
  fx.events.flatMap((event) => (event.type === 'row-end' ? [event.row] : [])).sort((a, b) => a.index - b.index || a.repeat - b.repeat);

const SCORES = {
  mentions_order: { type: 'boolean', scorer: 'contains', options: { value: 'Order' } },
  short: { type: 'boolean', scorer: 'turns', options: { max: 2 } },
  ended: { type: 'boolean', scorer: 'conversation_ended' },
};

function files(rows: number, evals: string[], turnEvals: string[], settings: string[] = []): Record<string, string> {
  const all = conversationFiles(settings, talks(rows), SCORES);
  all['prompts/echo.prompt.mdx'] = SUPPORT_PROMPT(settings).replace('  conversation:', `  evals: [${evals.join(', ')}]\n  turn_evals: [${turnEvals.join(', ')}]\n  conversation:`);
  return all;
}

describe('turn evals and conversation evals', () => {
  it('one turn-eval result per assistant turn, summarised per conversation: 10 conversations of 3 turns are n = 10', async () => {
    current = await fixture(files(10, [], ['polite', 'mentions_order']), scriptedModel());
    const outcome = await current.run();
    const rows = rowsOf(current);
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      const assistant = row.conversation?.turns.filter((turn) => turn.role === 'assistant') ?? [];
      expect(assistant.map((turn) => [turn.evals?.polite?.passed, turn.evals?.mentions_order?.passed])).toEqual([[true, false], [true, true], [true, false]]);
      expect(row.conversation?.turns.filter((turn) => turn.role === 'user').every((turn) => turn.evals === undefined)).toBe(true);
      expect(row.evals.polite).toEqual({ passed: true, score: 1, normalized: 1, reason: '3/3 turns passed' });
      expect(row.evals.mentions_order).toEqual({ passed: false, score: 1 / 3, normalized: 1 / 3, reason: '1/3 turns passed' });
    }
    const order = outcome.summary.evals.find((summary) => summary.name === 'mentions_order');
    expect(order).toMatchObject({ count: 10, verdictCount: 10, passedCount: 0, passRate: 0 });
    // Clopper-Pearson for 0 of 10 by hand: upper = 1 - 0.025^(1/10) = 0.308497 (0 of 30 turns would give 0.115703).
    expect(order?.passRateCi95?.[0]).toBe(0);
    expect(order?.passRateCi95?.[1]).toBeCloseTo(0.308497, 5);
    expect(order?.meanScore).toBeCloseTo(1 / 3, 12);
  });

  it('a turn eval sees its turn as output and the transcript before it; a row eval the last turn and the whole transcript', async () => {
    const seen: string[] = [];
    const record = (kind: string) => (params: EvalParams) => {
      seen.push(`${kind} ${String(params.output)} | ${params.messages.length} messages | ${params.turns?.length} turns | ${params.conversation?.endedBy}`);
      return { passed: true };
    };
    current = await fixture(files(1, ['whole'], ['each']), scriptedModel());
    await current.run({}, { scorers: { whole: record('row'), each: record('turn') } });
    expect(seen.sort()).toEqual([
      'row re: Thanks | 6 messages | 6 turns | stop',
      'turn re: I want a refund | 1 messages | 1 turns | stop',
      'turn re: Order 42 | 3 messages | 3 turns | stop',
      'turn re: Thanks | 5 messages | 5 turns | stop',
    ]);
  });

  it('built-ins turns (user turns ≤ max) and conversation_ended (stop before max_turns)', async () => {
    current = await fixture(files(1, ['short', 'ended'], []), scriptedModel());
    await current.run();
    expect(rowsOf(current)[0]?.evals).toEqual({
      short: { passed: false, score: 0, normalized: 0, reason: '3 user turns exceeds max 2' },
      ended: { passed: true, score: 1, normalized: 1, reason: 'ended by the stop text' },
    });
    await current.cleanup();
    current = await fixture(files(1, ['short', 'ended'], [], ['    max_turns: 2']), scriptedModel());
    await current.run();
    expect(rowsOf(current)[0]?.evals).toEqual({
      short: { passed: true, score: 1, normalized: 1, reason: '2 user turns within max 2' },
      ended: { passed: false, score: 0, normalized: 0, reason: 'ended by max_turns (2)' },
    });
  });
});

describe('summarizeTurns', () => {
  it('numeric turns: the mean; categorical: the lowest-valued label; an errored turn is the summary\'s error; skipped turns count for nothing', () => {
    expect(summarizeTurns([{ turn: 1, result: { score: 2, normalized: 0.2 } }, { turn: 3, result: { score: 4, normalized: 0.4 } }])).toEqual({ score: 3, normalized: 0.30000000000000004, reason: 'mean of 2 turns' });
    expect(summarizeTurns([{ turn: 1, result: { label: 'good', score: 1, normalized: 1 } }, { turn: 3, result: { label: 'bad', score: 0, normalized: 0 } }])).toMatchObject({ label: 'bad', score: 0.5 });
    expect(summarizeTurns([{ turn: 1, result: { passed: true } }, { turn: 3, result: { error: 'boom' } }])).toEqual({ error: 'turn 3: boom' });
    expect(summarizeTurns([{ turn: 1, result: { skipped: true } }])).toEqual({ skipped: true, reason: 'no assistant turn to judge' });
    expect(summarizeTurns([{ turn: 1, result: { passed: true, score: 1 } }, { turn: 3, result: { skipped: true } }])).toEqual({ passed: true, score: 1, reason: '1/1 turns passed' });
  });
});
