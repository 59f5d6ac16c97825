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

/**
 * The same report fitted to 80 columns: the inputs and outputs are cut first, then the eval's
 * reason at a word; the verdict and its score stay whole.
 */
const AT_80 =
  `┌───┬───────────────┬───────────┬──────────────┬───────────────────────────────┐
│ # │ Input         │ AI Result │ Expected Ou… │ exact                         │
├───┼───────────────┼───────────┼──────────────┼───────────────────────────────┤
│ 0 │ {"word":"alp… │ alpha     │ alpha        │ PASS (1.00 - output equals…)  │
│ 1 │ {"word":"bet… │ beta      │ beta         │ PASS (1.00 - output equals…)  │
│ 2 │ {"word":"gam… │ gamma     │ GAMMA        │ FAIL (0.00 - output "gamma"…) │
└───┴───────────────┴───────────┴──────────────┴───────────────────────────────┘
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

  it('on a 200-column terminal the table is whole; piped with COLUMNS=200 too', { timeout: 60_000 }, async () => {
    expect((await onTerminal(200)).output).toBe(WHOLE);
    expect((await piped({ COLUMNS: '200' })).stdout).toBe(WHOLE);
  });

  it('piped without COLUMNS, as on a 100-column terminal (not a table of whole cells)', { timeout: 60_000 }, async () => {
    const terminal = await onTerminal(100);
    expect(terminal.output).not.toBe(WHOLE);
    const plain = await piped();
    expect(plain.stdout).toBe(terminal.output);
    for (const line of plain.stdout.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(100);
    // COLUMNS that is not a width is ignored.
    expect((await piped({ COLUMNS: 'wide' })).stdout).toBe(terminal.output);
  });
});

// picocolors' codes, written out: green/red end with 39 (default colour), bold with 22.
const GREEN = (text: string): string => `\x1b[32m${text}\x1b[39m`;
const RED = (text: string): string => `\x1b[31m${text}\x1b[39m`;
const BOLD = (text: string): string => `\x1b[1m${text}\x1b[22m`;

describe('colour', () => {
  it('on a terminal: PASS green, FAIL red, headers and the verdict bold; the layout is the plain one', { timeout: 60_000 }, async () => {
    // The terminal helper sets NO_COLOR=1 for every other test; unset here.
    const { code, output } = await onTerminal(120, { NO_COLOR: undefined });
    expect(code).toBe(1);
    expect(output).toContain(`│ ${BOLD('#')} │ ${BOLD('Input')}            │ ${BOLD('AI Result')} │`);
    expect(output).toContain(`│ 0 │ {"word":"alpha"} │ alpha     │ alpha           │ ${GREEN('PASS (1.00 - output equals expected)')}                         │\n`);
    expect(output).toContain(`│ 2 │ {"word":"gamma"} │ gamma     │ GAMMA           │ ${RED('FAIL (0.00 - output "gamma" does not equal expected "GAMMA")')} │\n`);
    expect(output).toContain(`    ${RED('✘')} evals: 1 of 3 eval results did not pass\n    ${GREEN('✔')} errors: no row errored\n  Result:   ${BOLD(RED('FAILED'))}\n`);
    // Without the escape codes it is exactly the uncoloured report.
    expect(output.replace(/\x1b\[\d+m/g, '')).toBe(WHOLE);
  });

  it('NO_COLOR on a terminal, or FORCE_COLOR=0: none; piped: none; FORCE_COLOR piped: colour', { timeout: 90_000 }, async () => {
    expect((await onTerminal(120, { NO_COLOR: '1' })).output).toBe(WHOLE);
    expect((await onTerminal(120, { NO_COLOR: undefined, FORCE_COLOR: '0' })).output).toBe(WHOLE);
    expect((await piped({ NO_COLOR: undefined, COLUMNS: '120' })).stdout).toBe(WHOLE);
    const forced = await piped({ NO_COLOR: '1', FORCE_COLOR: '1', COLUMNS: '120' });
    expect(forced.stdout).toContain(`  Result:   ${BOLD(RED('FAILED'))}\n`);
    expect(forced.stdout.replace(/\x1b\[\d+m/g, '')).toBe(WHOLE);
  });

  it('errors stand out on a terminal: the `error:` label bold red, the message plain', { timeout: 60_000 }, async () => {
    const terminal = runInTerminal(['run-experiment', 'prompts/missing.prompt.mdx'], { cwd: project.dir, env: { ...SERVER_ENV(), NO_COLOR: undefined } });
    expect((await terminal.exited).code).toBe(2);
    expect(terminal.output).toMatch(new RegExp(`^${BOLD(RED('error:')).replace(/[[\]]/g, '\\$&')} \\S`));
    const plain = await project.run(['run-experiment', 'prompts/missing.prompt.mdx'], { env: { NO_COLOR: undefined } });
    expect(plain.stderr).toMatch(/^error: \S/);
    expect(plain.stderr).not.toContain('\x1b');
  });
});
