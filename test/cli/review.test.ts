import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { pleaseJudge, POLITE } from './please-judge.js';
import { cliProject, type CliProject } from './cli-project.js';

// Six rows; the judge (gpt-4o) passes a reply when it says "please".
const words = ['please sit', 'please go', 'sit', 'go away', 'thank you', 'move'];
const scores = {
  polite: POLITE,
  tone: { type: 'categorical', categories: [{ label: 'warm', value: 1 }, { label: 'cold', value: 0 }] },
};
const config = `export default { scorers: { tone: ({ output }: { output: unknown }) => ({ label: String(output).includes('please') ? 'warm' : 'cold' }) } };\n`;
const prompt = (dataset = 'words.jsonl'): string =>
  `---\nname: echo\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/${dataset}\n  evals: [polite, tone]\n---\n\n<User>{props.word}</User>\n`;

const server = useOpenAIServer({ handler: pleaseJudge });
let project: CliProject;
afterEach(() => project.cleanup());

async function setUp(): Promise<void> {
  project = await cliProject({
    'agentmark.config.ts': config,
    'prompts/echo.prompt.mdx': prompt(),
    'datasets/words.jsonl': words.map((word, i) => JSON.stringify({ name: `w${i}`, input: { word } })).join('\n'),
  });
  const json = JSON.parse(await project.read('agentmark.json')) as Record<string, unknown>;
  await project.write('agentmark.json', JSON.stringify({ ...json, scores }));
}

const cli = (args: string[]) => project.run(args, { server });
const runExperiment = (extra: string[] = []) => cli(['run-experiment', 'prompts/echo.prompt.mdx', '--judge-model', 'openai/gpt-4o', '-q', '-o', '/dev/null', ...extra]);
const annotations = async (id: string) =>
  (await readFile(join(project.dir, '.agentmark', 'runs', id, 'annotations.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('annotate', () => {
  it('appends a checked label line and never touches results.jsonl', async () => {
    await setUp();
    expect((await runExperiment()).code).toBe(1);
    const [id] = await project.runIds();
    const results = await project.read(`.agentmark/runs/${id}/results.jsonl`);
    const result = await cli(['annotate', 'latest', '2', 'polite', '--pass', '--note', 'curt but fine', '--reviewer', 'ann']);
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toBe(`Labelled 1 eval result in run ${id} (.agentmark/runs/${id}/annotations.jsonl)\n`);
    const [line] = await annotations(id!);
    expect(line).toMatchObject({ index: 2, repeat: 0, eval: 'polite', value: true, note: 'curt but fine', reviewer: 'ann' });
    expect(Object.keys(line!).sort()).toEqual(['at', 'eval', 'index', 'note', 'outputHash', 'repeat', 'reviewer', 'row', 'value']);
    expect(await project.read(`.agentmark/runs/${id}/results.jsonl`)).toBe(results);
  });

  it('names the schema when a value does not fit it (exit 2, nothing written)', async () => {
    await setUp();
    await runExperiment();
    const wrongKind = await cli(['annotate', 'latest', 'w1', 'tone', '--label', 'hot', '--reviewer', 'ann']);
    expect(wrongKind.code).toBe(2);
    expect(wrongKind.stderr).toContain('"tone" is a categorical score (scores.tone in agentmark.json) with labels "warm", "cold", got "hot"');
    const numeric = await cli(['annotate', 'latest', '1', 'polite', '--score', '0.5', '--reviewer', 'ann']);
    expect(numeric.code).toBe(2);
    expect(numeric.stderr).toContain('"polite" is a boolean score (scores.polite in agentmark.json): a label is true or false, got 0.5');
    const typo = await cli(['annotate', 'latest', '1', 'polit', '--pass', '--reviewer', 'ann']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('row 1 has no eval "polit"; it was scored on polite, tone');
    expect(typo.stderr).toContain('did you mean "polite"?');
    const [id] = await project.runIds();
    await expect(readFile(join(project.dir, '.agentmark', 'runs', id!, 'annotations.jsonl'))).rejects.toThrow(/ENOENT/);
  });

  it('imports labels in bulk, all or nothing', async () => {
    await setUp();
    await runExperiment();
    const good = words.map((_, i) => JSON.stringify({ row: i, eval: 'polite', value: i !== 2 && i !== 5, reviewer: 'bob' }));
    await project.write('labels.jsonl', [...good, JSON.stringify({ row: 'w9', eval: 'polite', value: true })].join('\n'));
    const bad = await cli(['annotate', 'latest', '--import', 'labels.jsonl']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('labels.jsonl:7: no row named "w9" in run');
    await project.write('labels.jsonl', good.join('\n'));
    const ok = await cli(['annotate', 'latest', '--import', 'labels.jsonl']);
    expect(ok.code).toBe(0);
    const [id] = await project.runIds();
    expect(await annotations(id!)).toHaveLength(6);
  });

  it('processes labelling at once lose nothing (8 imports of 200 labels, two reviewers)', async () => {
    await setUp();
    await runExperiment();
    const batch = (reviewer: string) =>
      Array.from({ length: 200 }, (_, i) => JSON.stringify({ row: i % 6, eval: 'polite', value: i % 2 === 0, note: `n${i}`, reviewer })).join('\n');
    await project.write('a.jsonl', batch('ann'));
    await project.write('b.jsonl', batch('bob'));
    // Each import is one process; the label lines go in one append each, many times over.
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) => cli(['annotate', 'latest', '--import', i % 2 === 0 ? 'a.jsonl' : 'b.jsonl'])),
    );
    expect(runs.map((r) => r.code)).toEqual(Array(8).fill(0));
    const [id] = await project.runIds();
    const lines = await annotations(id!);
    expect(lines).toHaveLength(1600);
    expect(lines.filter((line) => line.reviewer === 'ann')).toHaveLength(800);
  });
});

describe('review loop: annotate, agreement, dataset from-run, run-experiment', () => {
  it('labels become agreement figures, then a calibration set that reports the same agreement', async () => {
    await setUp();
    await runExperiment();
    // People agree with the judge on rows 0, 1, 3, 5 and not on 2 ("sit": polite to them) or 4 ("thank you").
    for (const [row, flag] of [['0', '--pass'], ['1', '--pass'], ['2', '--pass'], ['3', '--fail'], ['4', '--fail'], ['5', '--fail']] as const) {
      expect((await cli(['annotate', 'latest', row, 'polite', flag, '--reviewer', 'ann'])).code).toBe(0);
    }
    const undo = await cli(['annotate', 'latest', '4', 'polite', '--clear', '--reviewer', 'ann']);
    expect(undo.code).toBe(0);
    expect((await cli(['annotate', 'latest', '4', 'polite', '--pass', '--reviewer', 'ann'])).code).toBe(0);

    const table = await cli(['agreement', 'latest']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/6 labelled rows, 6 labels given in this run\n/);
    // Rows: people; columns: judge. Judge passes 0, 1; people pass 0, 1, 2, 4.
    expect(table.stdout).toContain(['    people \\ judge  false   true', '    false               2      0', '    true                2      2'].join('\n'));
    const json = JSON.parse((await cli(['agreement', 'latest', '--format', 'json'])).stdout) as { evals: Array<{ eval: string; n: number; kappa: { value: number } }> };
    const polite = json.evals.find((entry) => entry.eval === 'polite');
    // Cohen's kappa of [[2, 0], [2, 2]]: po = 4/6, pe = (2·4 + 4·2)/36 = 16/36, κ = (24 − 16)/(36 − 16) = 0.4.
    expect(polite).toMatchObject({ n: 6 });
    expect(polite?.kappa.value).toBeCloseTo(0.4, 12);

    const written = await cli(['dataset', 'from-run', 'latest', '--labelled', '-o', 'datasets/reviewed.jsonl']);
    expect(written.code).toBe(0);
    expect(written.stderr).toMatch(/^Wrote 6 rows to datasets\/reviewed\.jsonl from run \S+\n$/);
    // A path that cannot be a file is exit 2 naming it, with a hint, before anything is read: no stack trace.
    const noFolder = await cli(['dataset', 'from-run', 'latest', '-o', 'missing/rows.jsonl']);
    expect([noFolder.code, noFolder.stderr]).toEqual([2, 'error: -o missing/rows.jsonl: cannot write this file (its folder does not exist)\n  hint: create missing first, or give a path in an existing folder\n']);
    const folder = await cli(['dataset', 'from-run', 'latest', '-o', 'datasets']);
    expect([folder.code, folder.stderr]).toEqual([2, 'error: -o datasets: cannot write this file (it is a folder)\n  hint: give a file name, e.g. datasets/rows.jsonl\n']);
    const again = await cli(['dataset', 'from-run', 'latest', '--labelled', '-o', 'datasets/reviewed.jsonl']);
    expect(again.stderr).toMatch(/^Wrote 0 rows to datasets\/reviewed\.jsonl from run \S+; 6 already in the file\n$/);
    const rows = (await project.read('datasets/reviewed.jsonl')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows[2]).toMatchObject({ name: 'w2', input: { word: 'sit' }, labels: { polite: true } });
    expect(rows[2]?.source).toMatchObject({ index: 2, repeat: 0 });

    await project.write('prompts/echo.prompt.mdx', prompt('reviewed.jsonl'));
    const calibrated = await runExperiment(['--format', 'json', '-o', 'calibrated.json']);
    expect(calibrated.code).toBe(1);
    const report = JSON.parse(await project.read('calibrated.json')) as { summary: { agreement: { evals: Array<{ eval: string; kappa: { value: number } }> } } };
    expect(report.summary.agreement.evals.find((entry) => entry.eval === 'polite')?.kappa.value).toBeCloseTo(0.4, 12);
  });

  it('a label follows its row into a later run while the output is the same', async () => {
    await setUp();
    await runExperiment();
    const [first] = await project.runIds();
    expect((await cli(['annotate', 'latest', '3', 'polite', '--fail', '--reviewer', 'ann'])).code).toBe(0);
    await runExperiment();
    const shown = await cli(['agreement', 'latest']);
    expect(shown.stdout).toMatch(/1 labelled row, 0 labels given in this run, 1 carried over from earlier runs with the same output\n/);
    const json = JSON.parse((await cli(['agreement', 'latest', '--format', 'json'])).stdout) as { run: string; carried: number };
    expect(json.run).not.toBe(first);
    expect(json.carried).toBe(1);
  });
});
