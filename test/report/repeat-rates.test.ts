import { expect, test } from 'vitest';
import type { RunSummary } from '../../src/experiment/types.js';
import { formatSummary } from '../../src/report/index.js';
import { createMarkdownReporter } from '../../src/report/markdown-reporter.js';
import { MemoryStream, info, inOrder, summary } from './fixtures.js';

// The summary of a run with 3 repeats: the eval's pass^k and pass@k with their intervals, as
// summarizeEvals computes them (the numbers here stand for any).
const repeated: RunSummary = {
  ...summary,
  evals: [{ name: 'exact', count: 24, errored: 0, verdictCount: 24, passedCount: 17, passRate: 17 / 24, passRateCi95: [0.4, 0.9], repeats: 3, passHatK: 0.625, passHatKCi95: [0.306, 0.863], passAtK: 0.875, passAtKCi95: [0.529, 0.978] }],
};

test('the summary block shows pass^k and pass@k with their intervals after the pass rate', () => {
  const line = formatSummary(repeated, info).find((l) => l.includes('exact'));
  expect(line).toBe('    exact  pass 70.8% (17/24, 95% CI 40.0%–90.0%), pass^3 62.5% (95% CI 30.6%–86.3%), pass@3 87.5% (95% CI 52.9%–97.8%), 0 errors');
});

test('markdown adds pass^k and pass@k columns only when the run has repeats', async () => {
  const out = new MemoryStream();
  await createMarkdownReporter(out).onRunEnd?.(repeated, info, inOrder([]));
  expect(out.text).toContain('| Eval | Pass rate | 95% CI | Raw mean | Errors | pass^k | pass@k |\n|---|---|---|---|---|---|---|\n| exact | 70.8% (17/24) | 40.0%–90.0% |  | 0 | 62.5% (30.6%–86.3%) | 87.5% (52.9%–97.8%) |\n');
  const plain = new MemoryStream();
  await createMarkdownReporter(plain).onRunEnd?.(summary, info, inOrder([]));
  expect(plain.text).toContain('| Eval | Pass rate | 95% CI | Raw mean | Errors |\n|---|---|---|---|---|\n');
});
