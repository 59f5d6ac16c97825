import { describe, expect, it } from 'vitest';
import type { ExperimentOutcome } from '../../src/experiment/run-experiment.js';
import { formatScreen } from '../../src/watch/format-screen.js';
import type { RunReport } from '../../src/watch/run-report.js';

const last: RunReport = {
  runId: 'run-1',
  outcome: {} as ExperimentOutcome,
  evals: [{ name: 'mentions', passRate: 1 }],
  flips: [],
  errors: [],
  rows: 3,
  cached: 0,
  durationMs: 1200,
};

describe('the terminal screen: one block per prompt', () => {
  it('a prompt that no longer loads shows its error block only, which names the last good results', () => {
    const screen = formatScreen({
      status: 'watching 3 files for 1 experiment',
      experiments: [{ label: 'prompts/alpha.prompt.mdx', error: 'prompts/alpha.prompt.mdx:3:15: bad YAML', last, running: false }],
      block: { width: 100, cwd: '/' },
    });
    expect(screen.split('\n').filter((line) => line.startsWith('── prompts/alpha.prompt.mdx'))).toEqual(['── prompts/alpha.prompt.mdx · error']);
    expect(screen).toContain('  last good results (run run-1) still stand: mentions pass 100.0%');
  });

  it('a prompt that loads shows its last run', () => {
    const screen = formatScreen({ status: 's', experiments: [{ label: 'prompts/alpha.prompt.mdx', last, running: false }], block: { width: 100, cwd: '/' } });
    expect(screen.split('\n').filter((line) => line.startsWith('── '))).toEqual(['── prompts/alpha.prompt.mdx · run run-1']);
  });
});
