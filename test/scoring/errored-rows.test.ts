import { describe, expect, it } from 'vitest';
import type { RowResult } from '../../src/experiment/types.js';
import { EvalTallies, summarizeEvals } from '../../src/scoring/index.js';

const row = (index: number, repeat: number, evals: RowResult['evals'], error?: string): RowResult => ({
  index,
  line: index + 1,
  repeat,
  input: {},
  metadata: {},
  toolCalls: [],
  evals,
  cached: false,
  retries: 0,
  ...(error === undefined ? {} : { error }),
});

describe('a row that failed before its evals ran is an errored result of each eval', () => {
  it('with repeats: a verdict that did not pass, in the rate, pass^k and the error count', () => {
    const rows = [
      row(0, 0, { ok: { passed: true }, q: { score: 1 } }),
      row(0, 1, {}, 'agent threw'),
      row(1, 0, { ok: { passed: true }, q: { score: 0.5 } }),
      row(1, 1, { ok: { passed: true }, q: { score: 0.5 } }),
    ];
    const [ok, q] = summarizeEvals(rows, ['ok', 'q']);
    // 3 passes of 4 repeats (the thrown one did not pass), not 3 of 3.
    expect(ok).toMatchObject({ count: 4, errored: 1, verdictCount: 4, passedCount: 3, passRate: 0.75, passHatK: 0.5, passAtK: 1 });
    // An eval without verdicts gets no pass rate from errors; its mean is over the scores it has.
    expect(q).toMatchObject({ count: 4, errored: 1, verdictCount: 0, passedCount: 0, meanScore: 0.75 });
    expect(q?.passRate).toBeUndefined();
  });
  it('without repeats (rows added once): the same counts', () => {
    const tallies = new EvalTallies(['ok'], new Map(), true);
    tallies.add(row(0, 0, { ok: { passed: true } }));
    tallies.add(row(1, 0, {}, 'model call failed'));
    tallies.add(row(2, 0, { ok: { passed: false } }));
    expect(tallies.finish()[0]).toMatchObject({ count: 3, errored: 1, verdictCount: 3, passedCount: 1, passRate: 1 / 3 });
  });
});
