import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { runInTerminal } from '../helpers/run-in-terminal.js';
import { cliProject, normalize, type CliProject } from './cli-project.js';

// Above 50 rows the table lists the failed and errored rows only, and says how to see all.
let server: OpenAIServer;
let project: CliProject;
const words = (n: number, failEvery = 0): string =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ input: { word: `w${i}` }, expected_output: failEvery > 0 && i % failEvery === 0 ? `W${i}` : `w${i}` })).join('\n') + '\n';
beforeAll(async () => {
  server = await startOpenAIServer();
  const prompt = (dataset: string): string =>
    `---\nname: echo\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/${dataset}\n  evals: [exact]\n---\n\n<User>{props.word}</User>\n`;
  project = await cliProject({
    'datasets/many.jsonl': words(2000),
    'datasets/some.jsonl': words(120, 40),
    'prompts/many.prompt.mdx': prompt('many.jsonl'),
    'prompts/some.prompt.mdx': prompt('some.jsonl'),
  });
}, 60_000);
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

const ENV = (): NodeJS.ProcessEnv => ({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' });
const RUN = ['run-experiment', '--quiet', '--concurrency', '8'];

describe('large runs print what needs a look', () => {
  it('a 2,000-row passing run: under 40 lines on an 80-column terminal and piped', { timeout: 120_000 }, async () => {
    const terminal = runInTerminal([...RUN, 'prompts/many.prompt.mdx'], { cwd: project.dir, columns: 80, env: ENV() });
    expect((await terminal.exited).code).toBe(0);
    const screen = normalize(terminal.output.replace(/\r\n/g, '\n'), project.dir);
    expect(screen.split('\n').length).toBeLessThan(40);
    expect(screen.startsWith('All 2,000 rows passed; every row: --all-rows, or -o report.html.\n\nSUMMARY\n')).toBe(true);
    const piped = await project.run(['runs', 'show', 'latest'], { env: ENV() });
    expect(piped.stdout.startsWith('All 2,000 rows passed; every row: --all-rows, or -o report.html.\n\nSUMMARY\n')).toBe(true);
    const all = await project.run(['runs', 'show', 'latest', '--all-rows']);
    expect(all.stdout.split('\n').filter((line) => /^│ \d/.test(line))).toHaveLength(1000);
  });

  it('120 rows, 3 failing: the three, then the line; --all-rows lists all', { timeout: 120_000 }, async () => {
    const result = await project.run([...RUN, 'prompts/some.prompt.mdx'], { env: { ...ENV(), COLUMNS: '80' } });
    expect(result.code).toBe(1);
    const table = result.stdout.split('\n\nSUMMARY')[0] ?? '';
    expect(table).toBe(
      `┌────┬───────────────┬───────────┬───────────────┬─────────────────────────────┐
│ #  │ Input         │ AI Result │ Expected Out… │ exact                       │
├────┼───────────────┼───────────┼───────────────┼─────────────────────────────┤
│ 0  │ {"word":"w0"} │ w0        │ W0            │ FAIL (0.00 - output "w0"…)  │
│ 40 │ {"word":"w40… │ w40       │ W40           │ FAIL (0.00 - output "w40"…) │
│ 80 │ {"word":"w80… │ w80       │ W80           │ FAIL (0.00 - output "w80"…) │
└────┴───────────────┴───────────┴───────────────┴─────────────────────────────┘
3 of 120 rows shown: the failed and errored ones; every row: --all-rows, or -o
report.html.`,
    );
    const all = await project.run([...RUN, 'prompts/some.prompt.mdx', '--all-rows'], { env: ENV() });
    expect(all.stdout.split('\n').filter((line) => /^│ \d/.test(line))).toHaveLength(120);
  });
});
