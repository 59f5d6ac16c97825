import { afterEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { pleaseJudge, POLITE } from './please-judge.js';
import { kappa } from '../../src/scoring/agreement/index.js';
import { cliProject, type CliProject } from './cli-project.js';

// A calibration set: each row carries the verdict a person gave (`labels.polite`). The judge
// (gpt-4o on the loopback server) calls a reply polite when it says "please"; the people
// disagree with it on two rows.
const rows = [
  { input: { word: 'please sit' }, labels: { polite: true } },
  { input: { word: 'please go' }, labels: { polite: true } },
  { input: { word: 'sit' }, labels: { polite: false } },
  { input: { word: 'go away' }, labels: { polite: false } },
  { input: { word: 'thank you' }, labels: { polite: true } },
  { input: { word: 'please leave now' }, labels: { polite: false } },
  { input: { word: 'thanks a lot' }, labels: { polite: true } },
  { input: { word: 'move' }, labels: { polite: false } },
];
const scores = { polite: POLITE };
const prompt = (extra = ''): string =>
  `---\nname: echo\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/calibration.jsonl\n  evals: [polite]\n${extra}---\n\n<User>{props.word}</User>\n`;

const server = useOpenAIServer({ handler: pleaseJudge });
let project: CliProject;
afterEach(() => project.cleanup());

async function setUp(extra = '', dataset = rows): Promise<void> {
  project = await cliProject({
    'prompts/echo.prompt.mdx': prompt(extra),
    'datasets/calibration.jsonl': dataset.map((row) => JSON.stringify(row)).join('\n'),
  });
  const json = JSON.parse(await project.read('agentmark.json')) as Record<string, unknown>;
  await project.write('agentmark.json', JSON.stringify({ ...json, scores }));
}

const run = (args: string[] = []) => project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--judge-model', 'openai/gpt-4o', ...args], { server });

interface ReportRow {
  evals: Record<string, { passed?: boolean }>;
  metadata: { labels: { polite: boolean } };
}

describe('calibration sets: dataset rows that carry human labels', () => {
  it("prints each judged eval's kappa with its interval, equal to kappa of the report's own verdicts and labels", async () => {
    await setUp();
    const result = await run(['--format', 'json', '-o', 'report.json']);
    // The judge fails four rows, so the evals gate fails: agreement is reported either way.
    expect(result.code).toBe(1);
    const report = JSON.parse(await project.read('report.json')) as {
      rows: ReportRow[];
      summary: { agreement: { evals: Array<{ eval: string; n: number; kappa: { value: number; ci95: [number, number] } }> } };
    };
    // Rows: the person's verdict; columns: the judge's (false, true).
    const matrix = [[0, 0], [0, 0]];
    for (const row of report.rows) {
      const human = Number(row.metadata.labels.polite);
      const judged = Number(row.evals.polite?.passed);
      matrix[human]![judged]! += 1;
    }
    expect(matrix).toEqual([[3, 1], [2, 2]]);
    const [polite] = report.summary.agreement.evals;
    expect(polite?.eval).toBe('polite');
    expect(polite?.n).toBe(8);
    expect(polite?.kappa.value).toBeCloseTo(kappa(matrix)!, 12);
    expect(polite?.kappa.ci95[0]).toBeLessThan(polite!.kappa.value);
    const shown = await project.run(['runs', 'show', 'latest']);
    expect(shown.stdout).toMatch(/Agreement: judge vs human labels \(95% intervals\)\n {4}polite {2}κ 0\.25 \[-?\d\.\d\d, \d\.\d\d\], agree 62\.5% \[\d+\.\d%, \d+\.\d%\], over 8 rows\n/);
  });

  it('judge_min_agreement fails the run when the lower bound of kappa is below the minimum', async () => {
    await setUp('  judge_min_agreement:\n    polite: 0.6\n');
    const result = await run();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✘ agreement:polite: polite: judge κ 0\.25 \[-?\d\.\d\d, \d\.\d\d\] over 8 labelled rows; lower bound < 0\.6\n/);
    expect(result.stdout).toContain('Result:   FAILED');
  });

  it('a merge of shards reports the same agreement and gates it again', async () => {
    await setUp('  judge_min_agreement:\n    polite: 0.6\n');
    const whole = await run(['--format', 'json', '-o', 'whole.json']);
    expect(whole.code).toBe(1);
    for (const shard of ['1/2', '2/2']) expect((await run(['--shard', shard, '-q', '-o', '/dev/null'])).code).toBe(1);
    const ids = await project.runIds();
    expect((await project.run(['merge', ids[1]!, ids[2]!])).code).toBe(1);
    const mergedId = (await project.runIds()).find((id) => !ids.includes(id));
    expect((await project.run(['runs', 'show', mergedId!, '--format', 'json', '-o', 'merged.json'])).code).toBe(1);
    type Report = { summary: { agreement: unknown; gates: Array<{ name: string; passed: boolean }> } };
    const [a, b] = [JSON.parse(await project.read('whole.json')) as Report, JSON.parse(await project.read('merged.json')) as Report];
    expect(b.summary.agreement).toEqual(a.summary.agreement);
    expect(b.summary.gates.find((gate) => gate.name === 'agreement:polite')).toEqual({ ...a.summary.gates.find((gate) => gate.name === 'agreement:polite'), passed: false });
  });

  it('a label that does not fit the score schema is an input error naming the line, before any call', async () => {
    await setUp('', [rows[0]!, { input: { word: 'x' }, labels: { polite: 'yes' } } as never]);
    const result = await run();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('datasets/calibration.jsonl:2: labels.polite: "polite" is a boolean score (scores.polite in agentmark.json): a label is true or false, got "yes"');
    expect(server.requests).toHaveLength(0);
  });

  it('a label for an eval no schema names gets a did-you-mean', async () => {
    await setUp('', [{ input: { word: 'x' }, labels: { polit: true } } as never]);
    const result = await run();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('labels.polit: no eval or score schema is named "polit"; did you mean "polite"?');
  });

  it('a label naming a config scorer without a schema is fine, under --skip-eval too', async () => {
    await setUp('', [{ input: { word: 'x' }, labels: { short: true } } as never]);
    await project.write('prompts/echo.prompt.mdx', prompt().replace('evals: [polite]', 'evals: [polite, short]'));
    await project.write('agentmark.config.ts', 'export default { scorers: { short: ({ output }: { output: unknown }) => String(output).length < 40 } };\n');
    const skipped = await run(['--skip-eval', '-q', '-o', '/dev/null']);
    expect([skipped.code, skipped.stderr]).toEqual([0, '']);
  });
});
