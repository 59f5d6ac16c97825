import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, normalize, type CliProject } from './cli-project.js';

// Three words; the model echoes them. Run 1 answers "gamma" (fails: expected GAMMA; alpha and
// beta pass), run 2 shouts every word (gamma passes, alpha and beta fail).
let server: OpenAIServer;
let project: CliProject;
let first: string;
let second: string;
beforeAll(async () => {
  server = await startOpenAIServer();
  project = await cliProject();
  const run = (args: string[] = []) => project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--no-cache', '--quiet', '--concurrency', '1', ...args], { server });
  await run();
  server.setHandler((request) => ({ text: request.lastUserText.toUpperCase() }));
  await run();
  [first, second] = (await project.runIds()) as [string, string];
}, 30_000);
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

describe('agentmark runs', () => {
  it('lists runs newest first as a table and as JSON', async () => {
    const table = await project.run(['runs'], { env: { COLUMNS: '300' } });
    expect(table.code).toBe(0);
    const lines = normalize(table.stdout).split('\n');
    expect(lines[1]).toMatch(/│ Run\s+│ Started \(UTC\)\s+│ Prompt\s+│ Model\s+│ Dataset\s+│ Rows │ Evals\s+│ Status\s+│ Commit │ Duration │ Cost\s+│/);
    expect(lines[3]).toContain('│ prompts/echo.prompt.mdx │ openai/gpt-4o-mini │ datasets/words.jsonl │ 3    │ exact 33% │ completed │');
    const json = await project.run(['runs', '--format', 'json', '--limit', '1']);
    const entries = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ id: second, status: 'completed', prompt: 'prompts/echo.prompt.mdx', rows: 3, errored: 0, evals: [{ name: 'exact', passRate: 1 / 3 }] });
    const other = await project.run(['runs', '--prompt', 'prompts/shout.prompt.mdx']);
    expect(other.stdout).toBe('No runs yet.\n');
  });

  it('runs show prints a past run again without running anything; exit code as the run', async () => {
    const requests = server.requests.length;
    const shown = await project.run(['runs', 'show', 'latest~1', '--format', 'jsonl']);
    expect(shown.code).toBe(1);
    expect(shown.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { output: string }).output)).toEqual(['alpha', 'beta', 'gamma']);
    const table = await project.run(['runs', 'show', first.slice(0, 18)], { env: { COLUMNS: '300' } });
    expect(table.stdout).toContain(`Run:      ${first} (.agentmark/runs/${first})`);
    expect(table.stdout).toContain('│ 2 │ {"word":"gamma"} │ gamma     │ GAMMA           │ FAIL');
    const markdown = await project.run(['runs', 'show', first, '--format', 'markdown']);
    // A latency is `[...]ms` under a second and `[...]s` over it (a loaded machine can take either).
    expect(normalize(markdown.stdout).replace(/\[\.\.\.\]m?s\b/g, '[...]')).toBe(
      '### ❌ prompts/echo.prompt.mdx · openai/gpt-4o-mini\n\n3 rows run, 0 errored, 0 cached. Run `<run-id>`.\n\n' +
        '| Eval | Pass rate | 95% CI | Raw mean | Errors |\n|---|---|---|---|---|\n| exact | 66.7% (2/3) | 9.4%–99.2% | 0.67 (95% CI 0.00–1.00) | 0 |\n\n' +
        'Latency p50 [...], p95 [...] (live calls) · tokens 18 in / 3 out · cost <$0.0001\n\n' +
        '- ✘ evals: 1 of 3 eval results did not pass\n- ✔ errors: no row errored\n\n<details><summary>1 row did not pass</summary>\n\n' +
        '| # | Input | Output | Evals |\n|---|---|---|---|\n| 2 | {"word":"gamma"} | gamma | exact: FAIL (0.00 - output "gamma" does not equal expected "GAMMA") |\n\n</details>\n',
    );
    expect(server.requests.length).toBe(requests);
  });

  it('an unknown run is exit 2 with the closest ids', async () => {
    const result = await project.run(['runs', 'show', `${second.slice(0, -1)}x`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: unknown run "${second.slice(0, -1)}x"\n  hint: did you mean "${second}"?; recent runs: ${second}, ${first}; a run is named by a run id or unique prefix, \`latest\`, \`latest~N\`, \`@<git-ref>\`, a path to a run folder, or with a team store \`branch:<name>\` or \`commit:<sha>\` (there \`@<branch>\` is that branch's newest run)\n`);
  });
});

describe('agentmark runs prune', () => {
  it('--dry-run lists, --keep deletes older runs and leaves the response cache', async () => {
    const extra = await cliProject();
    try {
      for (let i = 0; i < 3; i++) await extra.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--format', 'jsonl'], { server });
      const ids = await extra.runIds();
      const dry = await extra.run(['runs', 'prune', '--keep', '1', '--dry-run']);
      expect(normalize(dry.stdout)).toBe('would delete <run-id> (prompts/echo.prompt.mdx, <time>)\nwould delete <run-id> (prompts/echo.prompt.mdx, <time>)\n2 runs would be deleted\n');
      expect(dry.stdout.indexOf(ids[1] as string)).toBeLessThan(dry.stdout.indexOf(ids[0] as string));
      expect(await extra.runIds()).toEqual(ids);
      const real = await extra.run(['runs', 'prune', '--keep', '1']);
      expect(real.stdout.trimEnd().split('\n').at(-1)).toBe('2 runs deleted');
      expect(await extra.runIds()).toEqual([ids[2]]);
      expect((await readdir(join(extra.dir, '.agentmark', 'cache'))).length).toBeGreaterThan(0);
      expect((await extra.run(['runs', 'prune'])).code).toBe(2);
      expect((await extra.run(['runs', 'prune', '--older-than', '3w'])).stderr).toBe('error: --older-than takes days like 30d, got "3w"\n');
    } finally {
      await extra.cleanup();
    }
  });
});

describe('agentmark compare', () => {
  it('table: header, per-eval statistics, changed rows with a word diff, the regression check (3 rows: inconclusive)', async () => {
    const result = await project.run(['compare', 'latest~1', 'latest'], { env: { COLUMNS: '300' } });
    expect(result.code).toBe(0);
    const out = normalize(result.stdout);
    expect(out).toContain('  Differs: nothing (same prompt, model, settings, dataset and commit)');
    expect(out).toContain('  Rows:    3 paired, 0 only in base, 0 only in head');
    expect(out).toContain(
      '│ exact (pass rate) │ 66.7% [9.4–99.2] │ 33.3% [0.8–90.6] │ −33.3 pts [−87.7, +58.5] │ [−100.0, +100.0] │ 1.00     │ 1 / 2 / 0                   │ not detectable with 3 pairs │ inconclusive │',
    );
    expect(out).toContain('Detectable drop: smallest drop the one-sided test finds with 80% power at α = 0.05. ');
    expect(out).toContain('Changed rows: 2 regressed, 1 improved');
    expect(out).toContain('▼ regressed #0  input: {"word":"alpha"}\n    diff: [-alpha-]{+ALPHA+}\n    exact: PASS → FAIL\n      base: output equals expected\n      head: output "ALPHA" does not equal expected "alpha"');
    expect(out).toContain('▲ improved #2  input: {"word":"gamma"}');
    // Every row changed (ψ = 1): Connor's formula needs ((z.95 + z.8) / 0.05)² ≈ 2,471 pairs to see 5 points.
    expect(out.trimEnd().split('\n').at(-1)).toBe(
      'Regression check: ? inconclusive: exact: no significant drop, but not detectable with 3 pairs; about 2499 more paired rows needed to detect a 5-point drop (2502 in all)',
    );
  });

  it('json is the documented result; markdown is ready for a pull request', async () => {
    const json = JSON.parse((await project.run(['compare', first, second, '--format', 'json'])).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ version: 2, base: { id: first, rows: 3 }, head: { id: second }, pairing: { paired: 3 }, changedRows: { regressed: 2, improved: 1 } });
    const markdown = await project.run(['compare', first, second, '--format', 'markdown']);
    expect(markdown.stdout).toContain('### ❔ AgentMark compare: `prompts/echo.prompt.mdx`\n\n**Inconclusive:** exact: no significant drop, but not detectable with 3 pairs; about 2499 more paired rows needed to detect a 5-point drop (2502 in all)\n');
    expect(markdown.stdout).toContain('| Eval | Base | Head | Difference [95% CI] | Bootstrap 95% | p (Holm) | Improved / regressed / same | Detectable drop | Gate |');
    expect(markdown.stdout).toContain('<details><summary>Changed rows: 2 regressed, 1 improved</summary>');
  });

  it('gates: on 3 rows --max-drop cannot fire (exit 0), --fail-on-regression says inconclusive (exit 0), --fail-on-inconclusive exits 1', async () => {
    const gate = await project.run(['compare', first, second, '--fail-on-regression']);
    expect(gate.code).toBe(0);
    expect(gate.stdout).toContain('Gate: ? inconclusive: exact: no significant drop, but not detectable with 3 pairs;');
    const strict = await project.run(['compare', first, second, '--fail-on-inconclusive']);
    expect(strict.code).toBe(1);
    const swapped = await project.run(['compare', second, first, '--max-drop', '0']);
    expect(swapped.code).toBe(0);
    // A 33.3-point observed drop on 3 rows is not a drop past 10 points with 95% confidence:
    // --max-drop is a one-sided test of the drop against the margin, not the observed drop.
    const fired = await project.run(['compare', first, second, '--max-drop', '10']);
    expect(fired.code).toBe(0);
    expect(fired.stdout).toContain('Gate: ? inconclusive: exact: no significant drop, but not detectable with 3 pairs');
    const drop = await project.run(['compare', second, first, '--max-drop', '0', '--format', 'json']);
    expect(JSON.parse(drop.stdout).gate).toEqual({
      checked: true,
      outcome: 'inconclusive',
      failed: false,
      reasons: [],
      inconclusive: ['exact: no significant drop, but not detectable with 3 pairs'],
      message: 'inconclusive: exact: no significant drop, but not detectable with 3 pairs',
    });
  });

  it('--fail-on-regression fires on a significant drop (8 of 8 rows regressed: one-sided p = 1/256)', async () => {
    const big = await cliProject({ 'datasets/words.jsonl': Array.from({ length: 8 }, (_, i) => JSON.stringify({ input: { word: `w${i}` }, expected_output: `w${i}` })).join('\n') });
    try {
      server.setHandler((request) => ({ text: request.lastUserText }));
      const args = ['run-experiment', 'prompts/echo.prompt.mdx', '--no-cache', '--quiet', '--format', 'jsonl'];
      await big.run(args, { server });
      server.setHandler((request) => ({ text: request.lastUserText.toUpperCase() }));
      await big.run(args, { server });
      const result = await big.run(['compare', 'latest~1', 'latest', '--fail-on-regression']);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('Gate: ✘ regressed: exact: pass rate significantly worse (-100.0 points, one-sided p = 0.0039 after Holm < α = 0.05)\n');
      expect((await big.run(['compare', 'latest~1', 'latest', '--fail-on-regression', '--alpha', '0.001'])).code).toBe(0);
    } finally {
      await big.cleanup();
    }
  });

  it('usage errors are exit 2', async () => {
    expect((await project.run(['compare', 'latest'])).stderr).toBe('error: compare needs two runs, base then head; got 1\n  hint: e.g. `agentmark compare latest~1 latest`\n');
    expect((await project.run(['compare', 'latest', 'latest~9'])).code).toBe(2);
    expect((await project.run(['compare', 'latest~1', 'latest', '--format', 'xml'])).stderr).toBe('error: --format xml: compare prints table, json, markdown or html\n');
  });
});
