import { expect, test } from 'vitest';
import type { ExperimentOutcome } from '../../src/experiment/run-experiment.js';
import type { EvalSummary, RowResult, RunSummary } from '../../src/experiment/types.js';
import { formatErrorBlock, formatRunBlock, RunHistory } from '../../src/watch/index.js';

const row = (index: number, passed: boolean | undefined, extra: Partial<RowResult> = {}): RowResult => ({
  index,
  line: index + 1,
  repeat: 0,
  input: { name: `n${index}` },
  output: `hello n${index}`,
  metadata: {},
  toolCalls: [],
  evals: passed === undefined ? {} : { exact: { passed, score: passed ? 1 : 0, normalized: passed ? 1 : 0 } },
  cached: true,
  retries: 0,
  ...extra,
});

function outcome(runId: string, rows: RowResult[], evals: EvalSummary[]): ExperimentOutcome {
  const summary: RunSummary = {
    rows: rows.length,
    errored: rows.filter((r) => r.error !== undefined).length,
    cached: rows.filter((r) => r.cached).length,
    pregenerated: 0,
    evals,
    latencyMs: {},
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    flaky: [],
    gates: [],
    passed: true,
  };
  return { runId, runDir: `/p/.agentmark/runs/${runId}`, status: 'completed', summary, failedIndexes: new Set() };
}

const exact = (passRate: number, meanScore: number): EvalSummary => ({ name: 'exact', count: 3, errored: 0, passCount: 3, passed: 0, passRate, meanScore });
const options = { width: 40, cwd: '/p' };

test('the first run has no deltas; the next shows ▲/▼ and the rows whose verdict flipped', () => {
  const history = new RunHistory();
  const first = history.record({ outcome: outcome('run-1', [row(0, true), row(1, false), row(2, true)], [exact(2 / 3, 2 / 3)]), rows: [row(0, true), row(1, false), row(2, true)], model: 'openai/gpt-4o-mini', durationMs: 42 });
  expect(formatRunBlock('prompts/a.prompt.mdx', first, options)).toBe(
    [
      '── prompts/a.prompt.mdx · run run-1',
      '  openai/gpt-4o-mini · 3 rows · 3 cached · 0 errored · 42ms',
      '  exact  pass 66.7%   mean 0.667',
      '',
    ].join('\n'),
  );

  const rows = [row(0, false), row(1, true), row(2, undefined, { error: '/p/prompts/a.prompt.mdx:3:7: unknown filter "nope"', output: undefined, cached: false })];
  const second = history.record({ outcome: outcome('run-2', rows, [exact(1 / 3, 0.5)]), rows, durationMs: 1500 });
  expect(formatRunBlock('prompts/a.prompt.mdx', second, options)).toBe(
    [
      '── prompts/a.prompt.mdx · run run-2',
      '  3 rows · 2 cached · 1 errored · 1.5s',
      '  exact  pass 33.3% ▼ -33.3%   mean 0.500 ▼ -0.167',
      '  flipped: 3',
      '    row 0 pass→fail  input {"name":"n0"}  output hello n0',
      '    row 1 fail→pass  input {"name":"n1"}  output hello n1',
      '    row 2 pass→fail  input {"name":"n2"}  error prompts/a.prompt.mdx:3:7: unknown filte…',
      '  errors: 1',
      '    row 2: prompts/a.prompt.mdx:3:7: unknown filter "nope"',
      '',
    ].join('\n'),
  );

  // A rerun of failed rows only updates those rows' verdicts and keeps the baseline numbers.
  const partial = history.record({ outcome: outcome('run-3', [row(0, true)], [exact(1, 1)]), rows: [row(0, true)], onlyIndexes: new Set([0, 2]), durationMs: 5 });
  expect(partial.onlyFailed).toBe(2);
  expect(partial.flips.map((flip) => `${flip.index} ${flip.from}→${flip.to}`)).toEqual(['0 fail→pass']);
  const next = history.record({ outcome: outcome('run-4', [], [exact(0.5, 0.5)]), rows: [], durationMs: 5 });
  expect(next.evals[0]?.passRateDelta).toBeCloseTo(0.5 - 1 / 3);

  expect(formatErrorBlock('prompts/a.prompt.mdx', 'prompts/a.prompt.mdx:2:1: invalid YAML', second)).toBe(
    [
      '── prompts/a.prompt.mdx · error',
      '  prompts/a.prompt.mdx:2:1: invalid YAML',
      '  last good results (run run-2) still stand: exact pass 33.3%   mean 0.500',
      '',
    ].join('\n'),
  );
});
