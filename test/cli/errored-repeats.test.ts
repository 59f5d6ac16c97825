import { afterEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

/**
 * An agent that throws on some repeats: those repeats are rows with `evals: {}`. They are
 * repeats that did not pass, in the run's summary as in `compare` (issue 35: the summary said
 * 60% over the verdicts left, compare 33.3% over all repeats, and "0 errors").
 */
const flakyConfig = `export default {
  agents: {
    // Throws on every second repeat, and on row 0's third: 4 of the 9 repeats.
    flaky: (ctx: any) => {
      if (ctx.row.repeat === 1 || (ctx.row.index === 0 && ctx.row.repeat === 2)) throw new Error('agent fell over');
      return { output: ctx.props.word };
    },
  },
};
`;
const flakyPrompt = '---\nname: flaky\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  agent: flaky\n  evals: [exact]\n---\n\n<User>{props.word}</User>\n';

const server = useOpenAIServer();
let project: CliProject;
afterEach(() => project.cleanup());

interface EvalNumbers {
  name: string;
  passRate?: number;
  passedCount: number;
  verdictCount: number;
  errored: number;
  passHatK?: number;
}

describe('errored repeats count as repeats that did not pass, on every surface', () => {
  it('3 rows × 3 repeats, 4 thrown: 3 of 9 passed in the table, the JSON report, markdown and compare', async () => {
    project = await cliProject({ 'agentmark.config.ts': flakyConfig, 'prompts/flaky.prompt.mdx': flakyPrompt });
    // alpha passes on repeat 0, beta on 0 and 2, gamma (expected GAMMA) never: 3 passes; the
    // 4 thrown repeats are 4 errors, so 3 of 9 — not 3 of the 5 verdicts left (60%).
    const table = await project.run(['run-experiment', 'prompts/flaky.prompt.mdx', '--repeat', '3', '-q'], { server });
    expect(table.code).toBe(1);
    expect(table.stdout).toContain('  Rows:     9 run, 4 errored');
    // (the line goes on under itself past the width; joined here). The raw mean is over the
    // scores there are: an errored repeat has none, in compare as here.
    expect(table.stdout.replace(/,\n\s+/g, ', ')).toMatch(/ {4}exact {2}pass 33\.3% \(3\/9, 95% CI [^)]*\), pass\^3 0\.0% \(95% CI [^)]*\), pass@3 66\.7% \(95% CI [^)]*\), raw mean 0\.67 \(95% CI [^)]*\), 4 errors/);

    const json = await project.run(['run-experiment', 'prompts/flaky.prompt.mdx', '--repeat', '3', '-q', '--format', 'json'], { server });
    const report = JSON.parse(json.stdout) as { summary: { errored: number; evals: EvalNumbers[] } };
    const exact = report.summary.evals.find((e) => e.name === 'exact');
    expect(report.summary.errored).toBe(4);
    expect(exact).toMatchObject({ passedCount: 3, verdictCount: 9, errored: 4, passHatK: 0 });
    expect(exact?.passRate).toBe(3 / 9);

    const markdown = await project.run(['run-experiment', 'prompts/flaky.prompt.mdx', '--repeat', '3', '-q', '--format', 'markdown'], { server });
    expect(markdown.stdout).toContain('| exact | 33.3% (3/9) |');

    const [first, second] = await project.runIds();
    const compared = await project.run(['compare', first as string, second as string, '--format', 'json']);
    expect(compared.stderr).toBe('');
    const comparison = JSON.parse(compared.stdout) as { evals: Array<{ name: string; base: { passRate?: number; passRateCi95?: number[] }; head: { passRate?: number } }> };
    const paired = comparison.evals.find((e) => e.name === 'exact');
    // The same number, to the last digit, and the same interval as the run's own summary.
    expect(paired?.base.passRate).toBe(exact?.passRate);
    expect(paired?.head.passRate).toBe(exact?.passRate);
    expect(paired?.base.passRateCi95).toEqual((exact as { passRateCi95?: number[] } | undefined)?.passRateCi95);
  });
});
