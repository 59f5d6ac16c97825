import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { echoResponder, startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
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

/**
 * beta answers after 1.5 s, the others at once. The limits are 1 s, not 0.3 s: the answers given
 * at once must come within the limit on a loaded machine too (a loopback call's p95 was 150 ms
 * at a load of 10 here), and beta's 1.5 s at the server is always past a 1 s limit whose timer
 * started before the request reached it.
 */
const slowBeta = (): void =>
  server.setHandler((request) => ({ ...(echoResponder(request) as { text: string }), ...(request.lastUserText === 'beta' ? { latencyMs: 1500 } : {}) }));

async function run(files: Record<string, string>, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  project = await cliProject(files);
  // Wide enough for whole cells (piped without COLUMNS, the table is fitted to 100 columns).
  return project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--max-retries', '0', '--no-cache', ...args], { server, env: { COLUMNS: '200' } });
}

type Row = { index: number; timedOut?: boolean; error?: string; errorCode?: string };

// Several CLI runs per test: slow on a loaded machine.
describe('per-row time limits', { timeout: 60_000 }, () => {
  it('test_settings.timeout_seconds sets the prompt default; a timed-out row is marked in json and jsonl', async () => {
    slowBeta();
    const files = { 'prompts/echo.prompt.mdx': prompt('  timeout_seconds: 1\n') };
    const json = await run(files, ['--rows', '0-1', '--format', 'json']);
    expect(json.code).toBe(1);
    const rows = (JSON.parse(json.stdout) as { rows: Row[] }).rows;
    expect(rows.map(({ index, timedOut, errorCode }) => ({ index, timedOut, errorCode }))).toEqual([
      { index: 0, timedOut: false, errorCode: null },
      { index: 1, timedOut: true, errorCode: 'MODEL_TIMEOUT' },
    ]);
    expect(rows[1]?.error).toBe('openai/gpt-4o-mini: timed out after 1s');
    await project?.cleanup();
    const jsonl = await run(files, ['--rows', '1', '--format', 'jsonl']);
    expect((JSON.parse(jsonl.stdout.split('\n')[0] ?? '') as Row).timedOut).toBe(true);
  });

  it('a timed-out row reads TIMED OUT in the table and carries type="timeout" in junit', async () => {
    slowBeta();
    const files = { 'prompts/echo.prompt.mdx': prompt('  timeout_seconds: 1\n') };
    const table = await run(files, ['--rows', '1']);
    expect(table.stdout).toMatch(/│ 1 │ \{"word":"beta"\} +│ TIMED OUT: openai\/gpt-4o-mini: timed out after 1s/);
    await project?.cleanup();
    const junit = await run(files, ['--rows', '1', '--format', 'junit']);
    expect(junit.stdout).toContain('<error type="timeout" message="openai/gpt-4o-mini: timed out after 1s');
  });

  it("a row's timeout_seconds overrides --timeout for that row only", async () => {
    slowBeta();
    const dataset =
      '{"input": {"word": "alpha"}, "expected_output": "alpha"}\n' +
      '{"timeout_seconds": 5, "input": {"word": "beta"}, "expected_output": "beta"}\n' +
      '{"input": {"word": "beta"}, "expected_output": "beta"}\n';
    const result = await run({ 'datasets/words.jsonl': dataset }, ['--timeout', '1', '--format', 'json']);
    const rows = (JSON.parse(result.stdout) as { rows: Row[] }).rows;
    expect(rows.map((row) => [row.index, row.timedOut ?? false])).toEqual([
      [0, false],
      [1, false],
      [2, true],
    ]);
    expect(result.code).toBe(1);
  });

  it('an explicit --timeout wins over test_settings.timeout_seconds', async () => {
    slowBeta();
    const result = await run({ 'prompts/echo.prompt.mdx': prompt('  timeout_seconds: 1\n') }, ['--rows', '1', '--timeout', '5', '--format', 'json']);
    expect((JSON.parse(result.stdout) as { rows: Row[] }).rows[0]?.timedOut).toBe(false);
    expect(result.code).toBe(0);
  });

  it('a timeout_seconds that is not a positive number is an input error naming the line', async () => {
    const result = await run({ 'datasets/words.jsonl': '{"input": {"word": "a"}}\n{"timeout_seconds": "5", "input": {"word": "b"}}\n' }, []);
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: datasets/words.jsonl:2: "timeout_seconds" must be a positive number of seconds (got "5")\n  hint: e.g. {"timeout_seconds": 5, "input": {...}}\n',
    });
  });
});
