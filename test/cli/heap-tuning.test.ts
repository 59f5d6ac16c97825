import { expect, it } from 'vitest';
import { LONG_RUN_ROWS, tuneHeapForRun } from '../../src/cli/heap-tuning.js';

// One test: the cap is process-wide and, once on, stays on.
it('caps heap growth only for long runs, and never over a value given on the command line', () => {
  expect(tuneHeapForRun(LONG_RUN_ROWS - 1, [])).toBe(false);
  expect(tuneHeapForRun(0, [])).toBe(false);
  expect(tuneHeapForRun(LONG_RUN_ROWS, ['--heap-growing-percent=80'])).toBe(false);
  expect(tuneHeapForRun(undefined, ['--heap-growing-percent=80'])).toBe(false);
  expect(tuneHeapForRun(LONG_RUN_ROWS, [])).toBe(true);
  // Later runs of the same process keep it.
  expect(tuneHeapForRun(10, [])).toBe(true);
});
