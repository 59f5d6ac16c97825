import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GridResult } from '../../src/compare/index.js';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

// Three runs over the same 30 rows: two models and one prompt variant. gpt-4o shouts every
// seventh word (rows 0, 7, 14, 21, 28 fail), the terse variant adds "!" to rows 3, 13 and 23.
const words = Array.from({ length: 30 }, (_, i) => `w${String(i).padStart(2, '0')}`);
const prompt = (name: string, system: string): string =>
  `---\nname: ${name}\ntext_config:\n  model_name: openai/gpt-4o-mini\n  temperature: 0\ntest_settings:\n  dataset: ../datasets/thirty.jsonl\n  evals: [exact]\n  props:\n    word: hello\n---\n\n<System>${system}</System>\n\n<User>{props.word}</User>\n`;
const DIFFERING = [0, 3, 7, 13, 14, 21, 23, 28];

let server: OpenAIServer;
let project: CliProject;
let ids: string[];
beforeAll(async () => {
  server = await startOpenAIServer({
    handler: (request) => {
      const word = request.lastUserText;
      const n = Number(word.slice(1));
      if (request.model === 'gpt-4o' && n % 7 === 0) return { text: word.toUpperCase() };
      if (request.messagesText.includes('Tersely') && n % 10 === 3) return { text: `${word}!` };
      return { text: word };
    },
  });
  project = await cliProject({
    'datasets/thirty.jsonl': words.map((word) => JSON.stringify({ input: { word }, expected_output: word })).join('\n') + '\n',
    'prompts/grid.prompt.mdx': prompt('grid', 'Repeat the word.'),
    'prompts/grid-terse.prompt.mdx': prompt('grid-terse', 'Tersely repeat the word.'),
  });
  const run = (args: string[]) => project.run(['run-experiment', ...args, '--no-cache', '--quiet', '--format', 'jsonl'], { server });
  await run(['prompts/grid.prompt.mdx']);
  await run(['prompts/grid.prompt.mdx', '--model', 'openai/gpt-4o']);
  await run(['prompts/grid-terse.prompt.mdx']);
  ids = await project.runIds();
}, 60_000);
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

const grid = async (...args: string[]): Promise<GridResult> => {
  const result = await project.run(['compare', ...ids, '--format', 'json', ...args]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as GridResult;
};

describe('Grid: three runs (two models, one prompt variant) over the same 30 rows', () => {
  it('json: one row per dataset row, one cell per run, each head compared with the base', async () => {
    expect(ids).toHaveLength(3);
    const all = await grid();
    expect(all.version).toBe(1);
    expect(all.runs.map((r) => r.label)).toEqual(['openai/gpt-4o-mini · grid', 'openai/gpt-4o · grid', 'openai/gpt-4o-mini · grid-terse']);
    expect(all.runs.map((r) => r.id)).toEqual(ids);
    expect([all.common, all.missing, all.matched, all.omitted, all.rows.length]).toEqual([30, [0, 0, 0], 30, 0, 30]);
    expect(all.comparisons.map((c) => [c.base.id, c.head.id, c.pairing.paired, c.evals[0]?.base.passRate, c.evals[0]?.head.passRate])).toEqual([
      [ids[0], ids[1], 30, 1, 25 / 30],
      [ids[0], ids[2], 30, 1, 27 / 30],
    ]);
    const row2 = all.rows[2];
    expect(row2?.index).toBe(2);
    expect(row2?.cells.map((c) => [c.output, c.evals['exact']?.passed])).toEqual([['w02', true], ['w02', true], ['w02', true]]);
    expect(all.rows[3]?.cells.map((c) => [c.output, c.evals['exact']?.passed])).toEqual([['w03', true], ['w03', true], ['w03!', false]]);
    expect(all.rows[7]?.cells.map((c) => c.output)).toEqual(['w07', 'W07', 'w07']);
    expect(typeof row2?.cells[0]?.latencyMs).toBe('number');
  });

  it('--disagree shows exactly the rows that differ; --failed the rows where any run failed; --sort disagreement puts them first', async () => {
    const disagree = await grid('--disagree');
    expect(disagree.rows.map((r) => r.index)).toEqual(DIFFERING);
    expect([disagree.matched, disagree.common]).toEqual([8, 30]);
    expect(disagree.rows.every((r) => r.evalsDiffering === 1 && r.outputsDiffer)).toBe(true);
    expect((await grid('--failed')).rows.map((r) => r.index)).toEqual(DIFFERING);
    const sorted = await grid('--sort', 'disagreement');
    expect(sorted.rows.map((r) => r.index)).toEqual([...DIFFERING, ...words.map((_, i) => i).filter((i) => !DIFFERING.includes(i))]);
    const limited = await grid('--sort', 'disagreement', '--limit', '2');
    expect([limited.rows.map((r) => r.index), limited.omitted]).toEqual([[0, 3], 28]);
  });

  it('table: the three outputs side by side in one line per row, the heads\' statistics above', async () => {
    // Piped, a table fits 100 columns (COLUMNS says more): here the whole cells.
    const result = await project.run(['compare', ...ids], { env: { COLUMNS: '300' } });
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`GRID: openai/gpt-4o-mini · grid (${ids[0]}) [base], openai/gpt-4o · grid (${ids[1]}), openai/gpt-4o-mini · grid-terse (${ids[2]})`);
    expect(lines[1]).toMatch(/^openai\/gpt-4o · grid vs openai\/gpt-4o-mini · grid: exact 83\.3% \(−16\.7 pts\); 30 paired rows; /);
    expect(lines[2]).toMatch(/^openai\/gpt-4o-mini · grid-terse vs openai\/gpt-4o-mini · grid: exact 90\.0% \(−10\.0 pts\); 30 paired rows; /);
    expect(lines).toContain('30 rows in all 3 runs');
    const row3 = lines.find((line) => line.startsWith('│ 3 '));
    expect(row3).toMatch(/^│ 3 +│ \{"word":"w03"\} +│ w03 · exact PASS(?: · \S+)+ +│ w03 · exact PASS(?: · \S+)+ +│ w03! · exact FAIL(?: · \S+)+ +│$/);
  });

  it('table fits the terminal width', async () => {
    const result = await project.run(['compare', ...ids], { env: { COLUMNS: '80' } });
    const table = result.stdout.split('\n').filter((line) => line.startsWith('│') || line.startsWith('┌'));
    expect(table.length).toBeGreaterThan(30);
    for (const line of table) expect(Array.from(line).length).toBeLessThanOrEqual(80);
  });

  it('markdown fits a PR comment: the changed rows only, at most --limit (default 100), with a count of the rest', async () => {
    // Markdown lists the changed rows only (--disagree or not).
    const full = await project.run(['compare', ...ids, '--format', 'markdown']);
    expect(full.code).toBe(0);
    expect(full.stdout).toContain('| # | Input | openai/gpt-4o-mini · grid | openai/gpt-4o · grid | openai/gpt-4o-mini · grid-terse |');
    expect(full.stdout).toContain('| 3 | {"word":"w03"} | w03 · exact PASS · ');
    expect(full.stdout.split('\n').filter((line) => /^\| \d+ \|/.test(line))).toHaveLength(8);
    expect(full.stdout).toContain('30 rows in all 3 runs; 8 where runs disagree.');
    expect(full.stdout).not.toContain('more rows not shown');
    expect(full.stdout.length).toBeLessThan(65_536);
    const cut = await project.run(['compare', ...ids, '--format', 'markdown', '--disagree', '--limit', '3']);
    expect(cut.stdout.split('\n').filter((line) => /^\| \d+ \|/.test(line)).map((line) => line.split(' | ')[0])).toEqual(['| 0', '| 3', '| 7']);
    expect(cut.stdout).toContain('… and 5 more rows not shown.');
  });

  it('says how many rows are missing from which run', async () => {
    await project.run(['run-experiment', 'prompts/grid.prompt.mdx', '--rows', '0-9', '--quiet', '--format', 'jsonl'], { server });
    const [, , , partial] = await project.runIds();
    const result = await project.run(['compare', ids[0] as string, ids[1] as string, partial as string, '--format', 'json']);
    const json = JSON.parse(result.stdout) as GridResult;
    expect([json.common, json.missing]).toEqual([10, [0, 0, 20]]);
    const table = await project.run(['compare', ids[0] as string, ids[1] as string, partial as string]);
    expect(table.stdout).toContain(`10 rows in all 3 runs (20 missing from openai/gpt-4o-mini (${partial}))`);
  });
});

describe('grid options', () => {
  it('are for three or more runs; --sort takes dataset or disagreement (exit 2)', async () => {
    const two = await project.run(['compare', ids[0] as string, ids[1] as string, '--disagree', '--sort', 'disagreement']);
    expect([two.code, two.stdout]).toEqual([2, '']);
    expect(two.stderr).toBe('error: --disagree, --sort: only for the results grid of three or more runs\n  hint: name a third run, e.g. `agentmark compare A B C --disagree`\n');
    const bad = await project.run(['compare', ...ids, '--sort', 'latency']);
    expect([bad.code, bad.stderr]).toEqual([2, 'error: --sort latency: the grid sorts by dataset or disagreement\n']);
  });
});
