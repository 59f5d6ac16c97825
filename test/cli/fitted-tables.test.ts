import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { runInTerminal } from '../helpers/run-in-terminal.js';
import { cliProject, type CliProject } from './cli-project.js';

// Every table fits the terminal (or COLUMNS, else 100 piped) by the order in src/report/fit-table.ts:
// free text cut first, then verdict reasons and intervals, then columns dropped in a stated order.
let server: OpenAIServer;
let project: CliProject;
beforeAll(async () => {
  server = await startOpenAIServer();
  project = await cliProject();
  for (let i = 0; i < 2; i++) {
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--no-cache', '--quiet', '--format', 'jsonl'], { server });
    expect(result.stderr).toBe('');
  }
}, 60_000);
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

/** Run ids and times as placeholders of the same width, so that column widths stay as printed. */
const steady = (text: string): string =>
  text
    .replace(/\r\n/g, '\n')
    .replace(/\d{8}-\d{6}\.\d{3}-[0-9a-f]{6}/g, 'RUN-ID-···················')
    .replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/g, 'YYYY-MM-DD hh:mm:ss')
    .replace(/\b[0-9a-f]{7}\*?(?= )/g, (commit) => 'c'.repeat(commit.length))
    // A run's duration is `812ms` under a second and `1.3s` over it (format-duration.ts): a loaded
    // machine can take either way, so both become `9…ms` of the same length.
    .replace(/\b(?:\d+ms|\d+\.\ds)(?= )/g, (time) => `${'9'.repeat(time.length - 2)}ms`);

async function onTerminal(args: string[], columns: number): Promise<string> {
  const terminal = runInTerminal(args, { cwd: project.dir, columns, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' } });
  await terminal.exited;
  return steady(terminal.output);
}

const widest = (text: string): number => Math.max(...text.split('\n').map((line) => Array.from(line).length));

const RUN_ROW_80 = '│ RUN-ID-··················· │ echo   │ 3    │ exact 67% │ completed │';

describe('tables fit the terminal', () => {
  it('runs: at 80 columns the run, rows, evals and status stay and a line names what was left out', { timeout: 60_000 }, async () => {
    expect(await onTerminal(['runs'], 80)).toBe(
      `┌────────────────────────────┬────────┬──────┬───────────┬───────────┐
│ Run                        │ Prompt │ Rows │ Evals     │ Status    │
├────────────────────────────┼────────┼──────┼───────────┼───────────┤
${RUN_ROW_80}
${RUN_ROW_80}
└────────────────────────────┴────────┴──────┴───────────┴───────────┘
Not shown, to fit 80 columns: Dataset, Commit, Cost, Duration, Started (UTC),
Model (all of it: --format json).
`,
    );
  });

  it('runs: at 120 columns the start, model (cut) and duration come back; piped, it fits 100', { timeout: 60_000 }, async () => {
    const at120 = await onTerminal(['runs'], 120);
    expect(widest(at120)).toBeLessThanOrEqual(120);
    expect(at120.split('\n').slice(1, 4)).toEqual([
      '│ Run                        │ Started (UTC)       │ Prompt │ Model          │ Rows │ Evals     │ Status    │ Duration │',
      '├────────────────────────────┼─────────────────────┼────────┼────────────────┼──────┼───────────┼───────────┼──────────┤',
      expect.stringMatching(/^│ RUN-ID-·+ │ YYYY-MM-DD hh:mm:ss │ echo   │ openai\/gpt-4o… │ 3    │ exact 67% │ completed │ 9+ms +│$/),
    ]);
    expect(at120).toContain('Not shown, to fit 120 columns: Dataset, Commit, Cost (all of it: --format json).\n');
    const piped = steady((await project.run(['runs'])).stdout);
    expect(piped.split('\n').slice(1, 4)).toEqual([
      '│ Run                        │ Prompt │ Model              │ Rows │ Evals     │ Status    │',
      '├────────────────────────────┼────────┼────────────────────┼──────┼───────────┼───────────┤',
      '│ RUN-ID-··················· │ echo   │ openai/gpt-4o-mini │ 3    │ exact 67% │ completed │',
    ]);
    expect(widest(piped)).toBeLessThanOrEqual(100);
    // With COLUMNS wide enough, every column.
    expect((await project.run(['runs'], { env: { COLUMNS: '300' } })).stdout).toContain('│ Dataset              │ Rows │');
  });

  it('compare at 80 columns: intervals go together, then columns; the eval and its gate stay; prose wraps at words', { timeout: 60_000 }, async () => {
    const at80 = await onTerminal(['compare', 'latest~1', 'latest'], 80);
    expect(at80).toContain(
      `┌───────────────────┬───────┬───────┬────────────┬──────────┬──────────────┐
│ Eval              │ Base  │ Head  │ Difference │ p (Holm) │ Gate         │
├───────────────────┼───────┼───────┼────────────┼──────────┼──────────────┤
│ exact (pass rate) │ 66.7% │ 66.7% │ 0.0 pts    │ 1.00     │ inconclusive │
└───────────────────┴───────┴───────┴────────────┴──────────┴──────────────┘
Not shown, to fit 80 columns: Bootstrap 95%, Detectable drop, Improved /
regressed / same (all of it: --format json).
Differences are head − base in points, over paired rows. Pass rates: Newcombe
interval, McNemar exact p;`,
    );
    const at120 = await onTerminal(['compare', 'latest~1', 'latest'], 120);
    expect(at120).toContain(
      `│ Eval              │ Base  │ Head  │ Difference │ p (Holm) │ Improved / regressed / same │ Gate         │
├───────────────────┼───────┼───────┼────────────┼──────────┼─────────────────────────────┼──────────────┤
│ exact (pass rate) │ 66.7% │ 66.7% │ 0.0 pts    │ 1.00     │ 0 / 0 / 3                   │ inconclusive │
└───────────────────┴───────┴───────┴────────────┴──────────┴─────────────────────────────┴──────────────┘
Not shown, to fit 120 columns: Bootstrap 95%, Detectable drop (all of it: --format json).
Differences are head − base in points, over paired rows. Pass rates: Newcombe interval, McNemar exact p; mean scores:
paired t interval,`,
    );
  });
});
