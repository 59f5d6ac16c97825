import { describe, expect, it } from 'vitest';
import { appendRow, emptyColumns, entryAt } from '../../src/store/row-columns.js';
import { row } from './synthetic-run.js';

describe('index columns', () => {
  it('lay rows out as columns; a label column stays empty until a row has a label, then holds one value per row', () => {
    const columns = emptyColumns(['a', 'b']);
    appendRow(columns, row(3, { latencyMs: 12, costUsd: 0.5, evals: { a: { passed: true, score: 1 }, b: { skipped: true } } }));
    appendRow(columns, row(1, { repeat: 1, latencyMs: undefined, cached: true, evals: { a: { passed: false, score: 0 }, b: { score: 0.25, label: 'short' } } }));
    appendRow(columns, row(2, { latencyMs: 7, error: 'timeout', evals: { a: { error: 'threw' }, b: { passed: true, score: 1 } } }));
    expect(columns).toEqual({
      evalNames: ['a', 'b'],
      index: [3, 1, 2],
      repeat: [0, 1, 0],
      // failed 2, cached 4, errored 1 (and so failed)
      flags: [0, 6, 3],
      latencyMs: [12, null, 7],
      costUsd: [0.5, null, null],
      verdicts: 'PSF-EP',
      scores: [
        [1, 0, null],
        [null, 0.25, 1],
      ],
      labels: [[], [null, 'short', null]],
    });
    // what a live event sends for each row
    expect([0, 1, 2].map((p) => entryAt(columns, p))).toEqual([
      [3, 0, 0, 12, 0.5, 'PS', [1, null], []],
      [1, 1, 6, null, null, 'F-', [0, 0.25], [null, 'short']],
      [2, 0, 3, 7, null, 'EP', [null, 1], []],
    ]);
  });
});
