import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fail, makeRun, pass, type RowSpec } from '../compare/make-run.js';
import { cliProject, type CliProject } from './cli-project.js';

// The three-way gate of `agentmark compare` through the built CLI, on runs written through the
// real store: each outcome with its exit code, in the table, json and markdown.
let project: CliProject;
const ids: Record<string, string> = {};

/** n rows; the first `failing` fail. */
const rows = (n: number, failing: number, offset = 0): RowSpec[] => Array.from({ length: n }, (_, i) => ({ input: { i: i + offset }, evals: { ok: i < failing ? fail() : pass() } }));

beforeAll(async () => {
  project = await cliProject();
  const make = async (name: string, spec: Omit<Parameters<typeof makeRun>[1], 'id' | 'evalNames'>): Promise<void> => {
    ids[name] = await makeRun(project.dir, { id: `20261130-10000${Object.keys(ids).length}.000-${name.padEnd(6, '0').slice(0, 6)}`, evalNames: ['ok'], ...spec });
  };
  await make('base', { rows: rows(200, 20) });
  await make('same', { rows: rows(200, 20) });
  // 12 more rows fail in head: one-sided McNemar p = ½¹² after no improvement.
  await make('worse', { rows: rows(200, 32) });
  await make('small', { rows: rows(12, 2) });
  await make('smallb', { rows: rows(12, 2) });
  await make('other', { rows: rows(5, 0, 1000), dataset: { path: 'datasets/other.jsonl', hash: 'ffffeeeeddddcccc' } });
  await make('part', { rows: rows(50, 20) });
}, 30_000);
afterAll(async () => {
  await project.cleanup();
});

// Whole tables (every column): piped, they fit 100 columns unless COLUMNS says more.
const compare = (base: string, head: string, ...args: string[]) => project.run(['compare', ids[base] as string, ids[head] as string, ...args], { env: { COLUMNS: '300' } });

describe('compare gate outcomes and exit codes', () => {
  it('no regression: not significant, and 200 pairs could see a 5-point drop → exit 0', async () => {
    const result = await compare('base', 'same', '--fail-on-regression', '--fail-on-inconclusive');
    expect(result.code).toBe(0);
    // No discordant pair: the exact one-sided test has 80% power from a 3.34-point drop (scipy:
    // test/fixtures/statistics/mcnemar-power-reference.py, power(200, 0, δ, 0.05) = 0.8) ≤ 5.
    // At 120 pairs it would need 5.54 points: 5 flips of 120 have only 56% power.
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('Gate: ✔ no regression: no eval significantly worse, and each could detect a drop of 5 points');
    expect(result.stdout).toMatch(/│ 3\.3 pts\s+│ no regression │/);
  });

  it('regressed: a significant drop → exit 1 with --fail-on-regression, 0 without', async () => {
    const result = await compare('base', 'worse', '--fail-on-regression');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Gate: ✘ regressed: ok: pass rate significantly worse (-6.0 points, one-sided p = 0.00024 after Holm < α = 0.05)\n');
    const report = await compare('base', 'worse');
    expect(report.code).toBe(0);
    expect(report.stdout).toContain('Regression check: ✘ regressed:');
    const json = JSON.parse((await compare('base', 'worse', '--format', 'json')).stdout) as { gate: { outcome: string; checked: boolean }; evals: Array<{ gate: { outcome: string } }> };
    expect(json.gate).toMatchObject({ outcome: 'regressed', checked: false });
    expect(json.evals[0]?.gate.outcome).toBe('regressed');
  });

  it('inconclusive: 12 pairs cannot see a 5-point drop → exit 0, or 1 with --fail-on-inconclusive; markdown says how many rows', async () => {
    const gate = await compare('small', 'smallb', '--fail-on-regression');
    expect(gate.code).toBe(0);
    expect(gate.stdout).toContain('Gate: ? inconclusive: ok: no significant drop, but smallest detectable drop 49.7 points > max drop 5; about 122 more paired rows needed to detect a 5-point drop (134 in all)\n');
    expect((await compare('small', 'smallb', '--fail-on-inconclusive')).code).toBe(1);
    // A drop of 50 points is what the user cares about: 12 pairs can see it.
    expect((await compare('small', 'smallb', '--fail-on-inconclusive', '--max-drop', '50')).code).toBe(0);
    const markdown = await compare('small', 'smallb', '--format', 'markdown');
    expect(markdown.stdout).toContain('### ❔ AgentMark compare');
    expect(markdown.stdout).toContain('**Inconclusive:** ok: no significant drop, but smallest detectable drop 49.7 points > max drop 5; about 122 more paired rows needed to detect a 5-point drop (134 in all)\n');
    // The label carries the α in use.
    expect((await compare('small', 'smallb', '--alpha', '0.1')).stdout).toContain('at α = 0.1.');
  });

  it('no row in common: exit 2 naming what differs, in every format', async () => {
    for (const format of ['table', 'json', 'markdown']) {
      const result = await compare('base', 'other', '--format', format);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `error: no rows in common between base ${ids.base} (200 rows) and head ${ids.other} (5 rows); they differ in dataset (base datasets/d.jsonl d-hash, head datasets/other.jsonl ffffeeeedddd)\n` +
          '  hint: rows pair by their content (input, expected output, metadata); compare two runs of the same dataset\n',
      );
    }
  });

  it('fewer than half of a run paired: a warning line in every format', async () => {
    const warning = 'fewer than half of the rows paired (base 50 of 200, head 50 of 50): the comparison speaks for the paired rows only';
    expect((await compare('base', 'part')).stdout).toContain(`  ⚠ ${warning}\n`);
    expect((await compare('base', 'part', '--format', 'markdown')).stdout).toContain(`> ⚠️ ${warning}\n`);
    expect((JSON.parse((await compare('base', 'part', '--format', 'json')).stdout) as { pairing: { warning: string } }).pairing.warning).toBe(warning);
    expect((await compare('base', 'same', '--format', 'json')).stdout).not.toContain('"warning"');
  });
});
