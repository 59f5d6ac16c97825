import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { runInTerminal } from '../helpers/run-in-terminal.js';
import { FIXTURES } from '../helpers/temp-project.js';
import { cliProject, normalize, type CliProject } from './cli-project.js';

const server = useOpenAIServer();
let project: CliProject;
beforeEach(async () => {
  project = await cliProject();
});
afterEach(() => project.cleanup());

const ARGS = ['run-experiment', 'prompts/echo.prompt.mdx', '--no-cache', '--concurrency', '1', '--quiet'];
const SERVER_ENV = (): NodeJS.ProcessEnv => ({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' });

/** The terminal's output as a file would hold it: `\n` line ends, timings and run ids replaced. */
async function onTerminal(columns: number, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string; raw: string }> {
  const terminal = runInTerminal(ARGS, { cwd: project.dir, columns, env: { ...SERVER_ENV(), ...env } });
  const { code } = await terminal.exited;
  const raw = terminal.output.replace(/\r\n/g, '\n');
  return { code, raw, output: normalize(raw, project.dir) };
}

const piped = async (env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> => {
  const result = await project.run(ARGS, { env: { ...SERVER_ENV(), ...env } });
  return { ...result, stdout: normalize(result.stdout, project.dir) };
};

/** test/fixtures/cli/formats/table.txt: the report with whole cells, 117 characters wide. */
const WHOLE = readFileSync(`${FIXTURES}cli/formats/table.txt`, 'utf8');
const SUMMARY_AT = WHOLE.indexOf('\nSUMMARY\n');

/** The same report fitted to 80 columns: the widest column (the eval's) gives way. */
const AT_80 =
  `┌───┬──────────────────┬───────────┬─────────────────┬─────────────────────────┐
│ # │ Input            │ AI Result │ Expected Output │ exact                   │
├───┼──────────────────┼───────────┼─────────────────┼─────────────────────────┤
│ 0 │ {"word":"alpha"} │ alpha     │ alpha           │ PASS (1.00 - output eq… │
│ 1 │ {"word":"beta"}  │ beta      │ beta            │ PASS (1.00 - output eq… │
│ 2 │ {"word":"gamma"} │ gamma     │ GAMMA           │ FAIL (0.00 - output "g… │
└───┴──────────────────┴───────────┴─────────────────┴─────────────────────────┘
` +
  WHOLE.slice(SUMMARY_AT)
    // The summary's long lines go on under themselves rather than wrap at the terminal's edge.
    .replace('), raw mean 0.67', '),\n           raw mean 0.67')
    .replace('  Run:      <run-id> (', '  Run:      <run-id>\n            (');

describe('the table fits the width of stdout', () => {
  it('on an 80-column terminal, and piped with COLUMNS=80, the same fitted table', { timeout: 60_000 }, async () => {
    const terminal = await onTerminal(80);
    expect(terminal.code).toBe(1);
    expect(terminal.output).toBe(AT_80);
    for (const line of terminal.raw.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(80);
    const withColumns = await piped({ COLUMNS: '80' });
    expect(withColumns.stdout).toBe(AT_80);
  });

  it('on a 200-column terminal the table is whole; piped without COLUMNS too (no width to fit)', { timeout: 60_000 }, async () => {
    expect((await onTerminal(200)).output).toBe(WHOLE);
    const plain = await piped();
    expect(plain.stdout).toBe(WHOLE);
    // COLUMNS that is not a width is ignored.
    expect((await piped({ COLUMNS: 'wide' })).stdout).toBe(WHOLE);
  });
});
