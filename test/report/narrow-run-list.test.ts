import { describe, expect, it } from 'vitest';
import { formatRunList, type RunListEntry } from '../../src/report/format-run-list.js';
import { shortenList } from '../../src/report/shorten-cells.js';

const entry = (id: string, evals: RunListEntry['evals']): RunListEntry => ({
  id,
  startedAt: '2026-12-02T01:23:03.790Z',
  status: 'completed',
  prompt: 'prompts/support-reply.prompt.mdx',
  model: 'openai/gpt-4o-mini',
  dataset: 'datasets/support-tickets.jsonl',
  rows: 12,
  evals,
});

/** The example project's runs: an eval list whose first entry alone is 23 characters. */
const ENTRIES = [
  entry('20261202-012303.790-e20c93', [
    { name: 'mentions_next_step', passRate: 1 },
    { name: 'no_blame', passRate: 1 },
    { name: 'reply_length', meanScore: 0.93 },
    { name: 'tone', meanScore: 0.92 },
    { name: 'fast_enough' },
  ]),
  entry('20261202-012241.566-04a421', [{ name: 'exact_intent', passRate: 0.92 }, { name: 'known_intent', passRate: 0.92 }]),
];

const widest = (text: string): number => Math.max(...text.split('\n').map((line) => Array.from(line).length));

describe('the runs table fits 80 columns even when its first eval alone is long', () => {
  it('every line within 80 (it printed all 280 columns: nothing fitted, so nothing was shortened)', () => {
    const table = formatRunList(ENTRIES, 80);
    expect(widest(table)).toBeLessThanOrEqual(80);
    expect(table).toContain('│ mentions_next_step 100%, +4 │');
    expect(table).toContain('│ 20261202-012303.790-e20c93 │');
  });

  it('an eval list gives way as "+n", then by its first name cut, its value kept', () => {
    const list = 'mentions_next_step 100%, no_blame 100%, tone 0.92';
    expect(shortenList(list, 47)).toBe('mentions_next_step 100%, no_blame 100%, +1 more');
    expect(shortenList(list, 32)).toBe('mentions_next_step 100%, +2 more');
    expect(shortenList(list, 27)).toBe('mentions_next_step 100%, +2');
    expect(shortenList(list, 20)).toBe('mentions_n… 100%, +2');
  });
});
