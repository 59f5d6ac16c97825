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

const exact = (passRate: number, meanScore: number): EvalSummary => ({ name: 'exact', count: 3, errored: 0, verdictCount: 3, passedCount: 0, passRate, meanScore });
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
      '  exact  pass 33.3% ▼ 33.3 pts   mean 0.500 ▼ -0.167',
      '  flipped: 3',
      '    row 0 pass→fail  input {"name":"n0"}  output hello n0',
      '    row 1 fail→pass  input {"name":"n1"}  output hello n1',
      '    row 2 pass→fail  input {"name":"n2"}  error prompts/a.prompt.mdx:3:7: unknown filte…',
      '  errors: 1',
      '    row 2: prompts/a.prompt.mdx:3:7: unknown filter "nope"',
      '',
    ].join('\n'),
  );

  // A rerun of failed rows only updates those rows' verdicts and keeps the baseline numbers;
  // its ▲/▼ compare with the same rows before: row 0 failed (0/1), row 2 errored (no result).
  const partial = history.record({ outcome: outcome('run-3', [row(0, true)], [exact(1, 1)]), rows: [row(0, true)], onlyIndexes: new Set([0, 2]), durationMs: 5 });
  expect(partial.onlyFailed).toBe(2);
  expect(partial.flips.map((flip) => `${flip.index} ${flip.from}→${flip.to}`)).toEqual(['0 fail→pass']);
  expect(formatRunBlock('prompts/a.prompt.mdx', partial, options).split('\n').slice(1, 3)).toEqual([
    '  1 row (failed rows only; ▲/▼ vs the same rows before) · 1 cached · 0 errored · 5ms',
    '  exact  pass 100.0% ▲ 100.0 pts   mean 1.000 ▲ +1.000',
  ]);
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

test('f compares the failed rows with the same rows of the previous run, not with the whole run', () => {
  // The case from issue 13: 11 of 12 rows pass; `f` reruns the one that failed.
  const history = new RunHistory();
  const all = Array.from({ length: 12 }, (_, index) => row(index, index !== 7));
  const full = history.record({ outcome: outcome('run-1', all, [exact(11 / 12, 11 / 12)]), rows: all, durationMs: 5 });
  expect(full.evals[0]).toEqual({ name: 'exact', passRate: 11 / 12, meanScore: 11 / 12 });

  const stillFailing = history.record({ outcome: outcome('run-2', [row(7, false)], [exact(0, 0)]), rows: [row(7, false)], onlyIndexes: new Set([7]), durationMs: 5 });
  // Same rows, same numbers: no ▲/▼ at all (was `pass 0.0% ▼ -91.7%`).
  expect(stillFailing.evals[0]).toEqual({ name: 'exact', passRate: 0, meanScore: 0, passRateDelta: 0, meanScoreDelta: 0 });
  expect(formatRunBlock('prompts/a.prompt.mdx', stillFailing, options).split('\n')[2]).toBe('  exact  pass 0.0%   mean 0.000');

  const fixed = history.record({ outcome: outcome('run-3', [row(7, true)], [exact(1, 1)]), rows: [row(7, true)], onlyIndexes: new Set([7]), durationMs: 5 });
  expect(fixed.evals[0]).toEqual({ name: 'exact', passRate: 1, meanScore: 1, passRateDelta: 1, meanScoreDelta: 1 });

  // The next full run is compared with the last full run, all 12 rows.
  const again = history.record({ outcome: outcome('run-4', all, [exact(1, 1)]), rows: all, durationMs: 5 });
  expect(again.evals[0]?.passRateDelta).toBeCloseTo(1 / 12);
});
