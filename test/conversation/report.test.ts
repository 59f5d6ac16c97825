import { describe, expect, it } from 'vitest';
import type { RowResult } from '../../src/experiment/index.js';
import { userTurns } from '../../src/conversation/index.js';
import { conversationNote } from '../../src/report/conversation-note.js';
import { reportRow } from '../../src/report/report-row.js';

const row = (endedBy: 'stop' | 'max_turns' | 'error'): RowResult => ({
  index: 0,
  line: 1,
  repeat: 0,
  input: {},
  metadata: {},
  output: 're: hi',
  toolCalls: [],
  evals: {},
  cached: false,
  retries: 0,
  conversation: {
    messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 're: hi' }],
    turns: [
      { index: 0, role: 'user', content: 'hi', simulated: true, cached: false },
      { index: 1, role: 'assistant', content: 're: hi', cached: false, latencyMs: 5, evals: { polite: { passed: true, score: 1, normalized: 1 } } },
    ],
    endedBy,
  },
  simulator: { calls: 2, usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 } },
});

describe('conversation rows in reports', () => {
  it('the table\'s result cell leads with the user turns and the end: [1t stop], [1t max], [1t error]', () => {
    expect(['stop', 'max_turns', 'error'].map((end) => conversationNote(row(end as 'stop')))).toEqual(['[1t stop]', '[1t max]', '[1t error]']);
    expect(conversationNote({ ...row('stop'), conversation: undefined })).toBeUndefined();
  });

  it('a turn is a user turn, given or simulated, as max_turns counts them: 3 user and 3 assistant messages are [3t stop]', () => {
    const said = (role: 'user' | 'assistant', content: string, extra: Record<string, unknown> = {}) => ({ index: 0, role, content, cached: false, ...extra });
    const turns = [
      said('user', 'hi', { given: true }),
      said('assistant', 're: hi', { given: true }),
      said('user', 'refund', { simulated: true }),
      said('assistant', 're: refund'),
      said('user', 'thanks', { simulated: true }),
      said('assistant', 're: thanks'),
    ].map((turn, index) => ({ ...turn, index }));
    const base = row('stop');
    const three = { ...base, conversation: { ...(base.conversation as NonNullable<RowResult['conversation']>), turns } };
    expect(conversationNote(three)).toBe('[3t stop]');
    // An assistant opener's greeting is not a turn of its own.
    expect(userTurns([{ role: 'assistant' }, { role: 'user' }, { role: 'assistant' }])).toBe(1);
    expect(userTurns([])).toBe(0);
  });

  it('json rows carry conversation (turn evals in the report\'s eval shape) and simulator; null on other rows', () => {
    const shown = reportRow(row('stop'));
    expect(shown.conversation?.turns[1]).toEqual({
      index: 1,
      role: 'assistant',
      content: 're: hi',
      cached: false,
      latencyMs: 5,
      evals: { polite: { score: 1, passed: true, label: null, reason: null, normalized: 1, error: null, skipped: false } },
    });
    expect(shown.conversation?.endedBy).toBe('stop');
    expect(shown.simulator).toEqual({ calls: 2, usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 } });
    const plain = reportRow({ ...row('stop'), conversation: undefined, simulator: undefined });
    expect([plain.conversation, plain.simulator]).toEqual([null, null]);
  });
});
