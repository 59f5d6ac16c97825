import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { echoResponder, startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { FIXTURES } from '../helpers/temp-project.js';
import { cliProject, type CliProject } from './cli-project.js';

let server: OpenAIServer;
let project: CliProject | undefined;
beforeAll(async () => {
  server = await startOpenAIServer();
});
afterAll(() => server.close());
afterEach(async () => {
  server.setHandler(echoResponder);
  await project?.cleanup();
  project = undefined;
});

const prompt = (settings: string): string =>
  `---\nname: echo\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [exact]\n${settings}---\n\n<User>{props.word}</User>\n`;

async function run(files: Record<string, string>, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  project = await cliProject(files);
  // Whole cells: piped, a table fits 100 columns unless COLUMNS says more.
  return project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', ...args], { server, env: { COLUMNS: '300' } });
}

const gateLines = (stdout: string): string[] => stdout.split('\n').filter((line) => /^ {4}[✔✘] /.test(line) || /^ {2}Result: /.test(line));
const latencyLines = (stdout: string): string[] => {
  const lines = stdout.split('\n');
  const at = lines.findIndex((line) => line.startsWith('  Latency:'));
  return lines.slice(at, at + 3).filter((line, i) => i === 0 || line.startsWith('            '));
};

// Several CLI runs per test: slow on a loaded machine.
describe('run-level gates, ungated evals, warm-up and the latency summary', { timeout: 60_000 }, () => {
  it('latency_p95_ms, cost_max_usd and tokens_max are gates with their measured values; one over is exit 1', async () => {
    // 1,000 tokens in and 500 out per call: 1,500 tokens and $0.00045 at gpt-4o-mini's list price
    // (0.15 and 0.60 USD per million), so 3 rows make 4,500 tokens and $0.00135.
    server.setHandler((request) => ({ text: request.lastUserText, usage: { input: 1000, output: 500 } }));
    const settings = '  latency_p95_ms: 60000\n  cost_max_usd: 0.002\n  tokens_max: 4000\n';
    const result = await run({ 'prompts/echo.prompt.mdx': prompt(settings), 'datasets/words.jsonl': '{"input": {"word": "a"}, "expected_output": "a"}\n'.repeat(3) }, []);
    const gates = gateLines(result.stdout);
    expect(gates[2]).toMatch(/^ {4}✔ latency_p95_ms: latency p95 \d+ms <= 60000ms$/);
    expect([...gates.slice(0, 2), ...gates.slice(3)]).toEqual([
      '    ✔ evals: all 3 eval results passed',
      '    ✔ errors: no row errored',
      '    ✔ cost_max_usd: cost $0.001350 <= $0.002',
      '    ✘ tokens_max: tokens 4500 > 4000',
      '  Result:   FAILED',
    ]);
    expect(result.code).toBe(1);
    await project?.cleanup();
    // A p95 above the limit fails on its own; json carries the same gates.
    server.setHandler((request) => ({ text: request.lastUserText, latencyMs: 300 }));
    const slow = await run({ 'prompts/echo.prompt.mdx': prompt('  latency_p95_ms: 50\n') }, ['--format', 'json']);
    const summary = (JSON.parse(slow.stdout) as { summary: { gates: Array<{ name: string; passed: boolean; message: string }> } }).summary;
    const gate = summary.gates.find((g) => g.name === 'latency_p95_ms');
    expect(gate?.passed).toBe(false);
    expect(gate?.message).toMatch(/^latency p95 \d+ms > 50ms$/);
    expect(slow.code).toBe(1);
  });

  it('"gate": false in a score schema reports the eval without counting it in the verdict', async () => {
    const config = JSON.parse(await readFile(join(FIXTURES, 'cli/echo/agentmark.json'), 'utf8')) as { scores: Record<string, Record<string, unknown>> };
    (config.scores.exact as Record<string, unknown>).gate = false;
    // gamma's expected output is GAMMA: exact fails on it, and the run still passes.
    const result = await run({ 'agentmark.json': JSON.stringify(config) }, []);
    expect(result.stdout).toMatch(/ {4}exact +pass 66\.7% \(2\/3/);
    // No gated eval gave a verdict: no evals gate (a ✔ over "all 0 eval results" said nothing).
    expect(gateLines(result.stdout)).toEqual(['    ✔ errors: no row errored', '  Result:   PASSED']);
    expect(result.code).toBe(0);
  });

  it('the summary gives mean ± std, min, max and the count of live calls; --warmup leaves the first calls out', async () => {
    const result = await run({}, ['--warmup', '1', '--concurrency', '1', '--format', 'json']);
    const document = JSON.parse(result.stdout) as { rows: Array<{ index: number; warmup?: boolean }>; summary: { latencyMs: Record<string, unknown> } };
    expect(document.rows.map((row) => [row.index, row.warmup ?? false])).toEqual([
      [0, true],
      [1, false],
      [2, false],
    ]);
    expect(Object.keys(document.summary.latencyMs)).toEqual(['count', 'mean', 'std', 'min', 'p50', 'p95', 'max']);
    expect(document.summary.latencyMs.count).toBe(2);
    await project?.cleanup();
    const table = await run({}, ['--warmup', '1', '--concurrency', '1']);
    expect(table.stdout).toMatch(/│ 0 \(warm-up\) +│ \{"word":"alpha"\}/);
    const [first, second] = latencyLines(table.stdout);
    expect(first).toMatch(/^ {2}Latency: {2}p50 [\d.]+m?s, p95 [\d.]+m?s \(live calls only\)$/);
    expect(second).toMatch(/^ {12}mean [\d.]+m?s ± [\d.]+m?s std, min [\d.]+m?s, max [\d.]+m?s, 2 calls$/);
  });

  it('--warmup counts calls made to the model: a cached row is not warm-up and takes no warm-up place', async () => {
    project = await cliProject({});
    const args = ['run-experiment', 'prompts/echo.prompt.mdx', '--quiet'];
    expect((await project.run([...args, '--rows', '0'], { server })).code).toBe(0);
    const result = await project.run([...args, '--warmup', '1', '--concurrency', '1', '--format', 'json'], { server });
    const document = JSON.parse(result.stdout) as { rows: Array<{ index: number; cached: boolean; warmup: boolean }>; summary: { latencyMs: { count?: number } } };
    expect(document.rows.map((row) => [row.index, row.cached, row.warmup])).toEqual([
      [0, true, false],
      [1, false, true],
      [2, false, false],
    ]);
    expect(document.summary.latencyMs.count).toBe(1);
    // --warmup-repeats: a cached first repeat made no call, so it is not warm-up; the repeats after it are measured as usual.
    const repeats = await project.run([...args, '--repeat', '2', '--warmup-repeats', '1', '--format', 'json'], { server });
    const again = JSON.parse(repeats.stdout) as typeof document;
    expect(again.rows.map((row) => [row.index, row.cached, row.warmup])).toEqual([
      [0, true, false],
      [0, false, false],
      [1, true, false],
      [1, false, false],
      [2, true, false],
      [2, false, false],
    ]);
    expect(again.summary.latencyMs.count).toBe(3);
  });

  it('--warmup-repeats leaves out the first repeats of each row; with repeats the per-row spread is reported', async () => {
    const result = await run({}, ['--repeat', '3', '--warmup-repeats', '1']);
    const lines = latencyLines(result.stdout);
    expect(lines[1]).toMatch(/^ {12}mean [\d.]+m?s ± [\d.]+m?s std, min [\d.]+m?s, max [\d.]+m?s, 6 calls$/);
    expect(lines[2]).toMatch(/^ {12}across repeats: std [\d.]+m?s per row on average \(3 rows\), widest #\d \(mean [\d.]+m?s, std [\d.]+m?s\)$/);
    await project?.cleanup();
    const bad = await run({}, ['--repeat', '2', '--warmup-repeats', '2']);
    expect(bad).toMatchObject({
      code: 2,
      stderr: 'error: --warmup-repeats 2 leaves no measured repeat of --repeat 2\n  hint: give --repeat more than --warmup-repeats, e.g. --repeat 5 --warmup-repeats 1\n',
    });
  });
});
