import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';

// Pre-generated outputs: nothing is called. Row 0 and 2 carry `contains` (with their own value),
// row 1 carries has_a and a threshold (so row_score); row 3 carries none of them.
const files = {
  'agentmark.json': JSON.stringify({
    version: '2.0.0',
    mdxVersion: '1.0',
    agentmarkPath: 'prompts',
    builtInModels: [],
    scores: { exact: { type: 'boolean', scorer: 'exact_match' }, contains: { type: 'boolean' }, has_a: { type: 'boolean', scorer: 'contains' } },
  }),
  'prompts/echo.prompt.mdx': '---\nname: echo\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [exact]\n---\n\n<User>{props.word}</User>\n',
  'datasets/words.jsonl': [
    { input: { word: 'alpha' }, expected_output: 'alpha', output: 'alpha', evals: [{ name: 'contains', options: { value: 'lph' } }] },
    { input: { word: 'beta' }, expected_output: 'beta', output: 'beta', evals: ['has_a'], threshold: 0.6 },
    { input: { word: 'gamma' }, expected_output: 'gamma', output: 'gamma!', evals: [{ name: 'contains', options: { value: 'zzz' } }] },
    { input: { word: 'delta' }, expected_output: 'delta', output: 'delta' },
  ]
    .map((row) => JSON.stringify(row))
    .join('\n'),
};

let project: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  project = await tempProject(files);
});
afterAll(async () => project.cleanup());

const run = (...args: string[]) => runCli(['run-experiment', 'prompts/echo.prompt.mdx', ...args], { cwd: project.dir, env: { COLUMNS: '120' } });

describe('row evals on every report', () => {
  it('table: a row eval\'s cell is "-" on rows without it, and its n is the rows that carry it', async () => {
    const result = await run();
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines.find((line) => line.includes('│ 3 │'))).toMatch(/│ PASS \(1\.00\) │ -\s+│ -\s+│ -\s+│$/);
    expect(result.stdout).toMatch(/contains +pass 50\.0% \(1\/2,/);
    expect(result.stdout).toMatch(/has_a +pass 100\.0% \(1\/1,/);
    expect(result.stdout).toMatch(/row_score +pass 100\.0% \(1\/1,/);
    expect(result.stdout).toMatch(/exact +pass 75\.0% \(3\/4,/);
  });

  it('json: a row lists only its evals; the summary counts each eval over the rows that carry it', async () => {
    const result = await run('-o', 'report.json');
    expect(result.code).toBe(1);
    const report = JSON.parse(await readFile(join(project.dir, 'report.json'), 'utf8')) as {
      rows: Array<{ evals: Record<string, unknown> }>;
      summary: { evals: Array<{ name: string; count: number; verdictCount: number; passedCount: number; skipped: number }> };
    };
    expect(report.rows.map((row) => Object.keys(row.evals))).toEqual([['exact', 'contains'], ['exact', 'has_a', 'row_score'], ['exact', 'contains'], ['exact']]);
    expect(report.summary.evals.map((e) => [e.name, e.count, e.verdictCount, e.passedCount, e.skipped])).toEqual([
      ['exact', 4, 4, 3, 0],
      ['contains', 2, 2, 1, 0],
      ['has_a', 1, 1, 1, 0],
      ['row_score', 1, 1, 1, 0],
    ]);
  });

  it('junit: one test case per row × eval it carries', async () => {
    const result = await run('--format', 'junit');
    expect(result.stdout).toContain('<testsuites name="agentmark" tests="8" failures="2" errors="0"');
    expect(result.stdout).not.toContain('row 3 · contains');
    expect(result.stdout).toContain('row 1 · row_score');
  });

  it('markdown: the pass-rate table counts the rows that carry each eval; a failed row lists only its evals', async () => {
    const result = await run('--format', 'markdown');
    expect(result.stdout).toContain('| contains | 50.0% (1/2) |');
    expect(result.stdout).toContain('| has_a | 100.0% (1/1) |');
    expect(result.stdout).toContain('| 2 | {"word":"gamma"} | gamma! | exact: FAIL (0.00 - output "gamma!" does not equal expected "gamma"); contains: FAIL (0.00 - output does not contain "zzz") |');
  });

  it('validate binds the rows\' evals: an unknown one is exit 2 at its row and column, with did-you-mean', async () => {
    await writeFile(join(project.dir, 'datasets/bad.jsonl'), '{"input":{"word":"x"},"evals":["containz"]}\n');
    await writeFile(join(project.dir, 'prompts/bad.prompt.mdx'), files['prompts/echo.prompt.mdx'].replace('words.jsonl', 'bad.jsonl'));
    const result = await runCli(['validate', 'prompts/bad.prompt.mdx'], { cwd: project.dir });
    expect(result.code).toBe(2);
    // {"input":{"word":"x"},"evals":["containz"]}: "containz" starts at column 32 (str.index + 1 in Python).
    expect(result.stdout + result.stderr).toMatch(/datasets\/bad\.jsonl:1:32: eval "containz" has no scorer; available: .*\n {2}hint: did you mean "contains"\?/);
  });

  it('csv: a row eval\'s fields are empty on rows without it', async () => {
    const result = await run('--format', 'csv');
    const [header, , , , last] = result.stdout.trimEnd().split('\n');
    const columns = header?.split(',') ?? [];
    const cells = last?.split(',') ?? [];
    const at = columns.indexOf('contains_passed');
    expect(at).toBeGreaterThan(0);
    expect(cells[at]).toBe('');
    expect(cells[columns.indexOf('exact_passed')]).toBe('true');
  });
});
