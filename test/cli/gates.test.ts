import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer, echoResponder } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

let server: OpenAIServer;
let project: CliProject;
beforeAll(async () => {
  server = await startOpenAIServer();
});
afterAll(() => server.close());
afterEach(async () => {
  server.setHandler(echoResponder);
  await project.cleanup();
});

const thresholdsPrompt = (minimum: number): string =>
  '---\nname: measured\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\n' +
  `  evals: [exact, length]\n  score_thresholds:\n    length: ${minimum}\n---\n\n<User>{props.word}</User>\n`;

async function run(args: string[], files: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  project = await cliProject(files);
  // Wide enough for whole cells (piped without COLUMNS, the table is fitted to 100 columns).
  return project.run(['run-experiment', '--quiet', ...args], { server, env: { COLUMNS: '200' } });
}

const gateLines = (stdout: string): string[] => stdout.split('\n').filter((line) => /^ {4}[✔✘] /.test(line) || /^ {2}Result: /.test(line));

describe('run-experiment gates and exit codes', () => {
  it('exits 0 when every eval passed and no row errored', async () => {
    const result = await run(['prompts/echo.prompt.mdx', '--rows', '0-1']);
    expect(result.code).toBe(0);
    expect(gateLines(result.stdout)).toEqual(['    ✔ evals: all 2 eval results passed', '    ✔ errors: no row errored', '  Result:   PASSED']);
  });

  it('exits 1 when an eval did not pass', async () => {
    const result = await run(['prompts/echo.prompt.mdx']);
    expect(result.code).toBe(1);
    expect(gateLines(result.stdout)).toEqual(['    ✘ evals: 1 of 3 eval results did not pass', '    ✔ errors: no row errored', '  Result:   FAILED']);
  });

  it('exits 1 when a row errored, and goes on with the other rows', async () => {
    server.setHandler((request) => (request.lastUserText === 'beta' ? { status: 400, message: 'bad request for beta' } : echoResponder(request)));
    const result = await run(['prompts/echo.prompt.mdx', '--rows', '0-1']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/│ 1 │ \{"word":"beta"\} +│ ERROR: .*bad request for beta/);
    expect(gateLines(result.stdout)).toEqual([
      // the errored row has no eval results; the errors gate is the one that fails
      '    ✔ evals: all 1 eval results passed',
      '    ✘ errors: 1 of 2 rows errored',
      '  Result:   FAILED',
    ]);
  });

  it('a run whose rows all errored has no eval results and never shows a ✔ for its evals', async () => {
    server.setHandler(() => ({ status: 400, message: 'bad request' }));
    const result = await run(['prompts/echo.prompt.mdx', '--rows', '0-1']);
    expect(result.code).toBe(1);
    expect(gateLines(result.stdout)).toEqual([
      '    ✘ evals: no eval results: every row errored before its evals ran',
      '    ✘ errors: 2 of 2 rows errored',
      '  Result:   FAILED',
    ]);
  });

  it('--threshold: passes at or below the pass rate, fails above it', async () => {
    const below = await run(['prompts/echo.prompt.mdx', '--threshold', '66']);
    expect(below.code).toBe(0);
    expect(gateLines(below.stdout)).toEqual(['    ✔ threshold: pass rate 66.7% >= threshold 66%', '  Result:   PASSED']);
    await project.cleanup();
    const above = await run(['prompts/echo.prompt.mdx', '--threshold', '70']);
    expect(above.code).toBe(1);
    expect(gateLines(above.stdout)).toEqual(['    ✘ threshold: pass rate 66.7% < threshold 70%', '  Result:   FAILED']);
  });

  it('--threshold counts errored rows as failed', async () => {
    server.setHandler((request) => (request.lastUserText === 'beta' ? { status: 400 } : echoResponder(request)));
    const result = await run(['prompts/echo.prompt.mdx', '--rows', '0-1', '--threshold', '50']);
    expect(result.code).toBe(0);
    expect(gateLines(result.stdout)).toEqual(['    ✔ threshold: pass rate 50.0% >= threshold 50%', '  Result:   PASSED']);
  });

  it('--threshold out of range is a usage error', async () => {
    const before = server.requests.length;
    const result = await run(['prompts/echo.prompt.mdx', '--threshold', '100.5']);
    expect(result).toMatchObject({ code: 2, stdout: '', stderr: 'error: --threshold must be at most 100, got 100.5\n' });
    expect(server.requests.length).toBe(before);
  });

  it('--threshold with no eval that reports passed is a usage error', async () => {
    const calls = server.requests.length;
    const numericOnly = await run(['prompts/shout.prompt.mdx', '--threshold', '50']);
    expect(numericOnly).toMatchObject({ code: 2, stdout: '' });
    expect(numericOnly.stderr).toBe(
      'error: --threshold needs an eval that reports passed, but every eval here is numeric\n' +
        '  hint: gate numeric scores with test_settings.score_thresholds instead\n',
    );
    // Known from the score schemas, so no model was called.
    expect(server.requests.length).toBe(calls);
    await project.cleanup();
    const before = server.requests.length;
    const skipped = await run(['prompts/echo.prompt.mdx', '--threshold', '50', '--skip-eval']);
    expect(skipped.code).toBe(2);
    expect(skipped.stderr).toBe('error: --threshold needs evals that report passed, but this run has none\n  hint: drop --skip-eval\n');
    expect(server.requests.length).toBe(before);
  });

  it('score_thresholds: exit 1 when a mean score is below its minimum, 0 when it reaches it', async () => {
    const missed = await run(['prompts/measured.prompt.mdx', '--rows', '0-1'], { 'prompts/measured.prompt.mdx': thresholdsPrompt(0.5) });
    expect(missed.code).toBe(1);
    // alpha: 5 chars, beta: 4 chars, on a 0..10 scale
    expect(gateLines(missed.stdout)).toContain('    ✘ score:length: length: mean score 0.450 < 0.5');
    await project.cleanup();
    const met = await run(['prompts/measured.prompt.mdx', '--rows', '0-1'], { 'prompts/measured.prompt.mdx': thresholdsPrompt(0.45) });
    expect(met.code).toBe(0);
    expect(gateLines(met.stdout)).toContain('    ✔ score:length: length: mean score 0.450 >= 0.45');
  });

  it('a run of zero rows fails', async () => {
    const before = server.requests.length;
    // test:99 is the 1% of 3 rows after the first 99% (rounded: all 3 rows are train)
    const result = await run(['prompts/echo.prompt.mdx', '--split', 'test:99']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^No rows were run\.\n\nSUMMARY\n {2}Rows: {5}0 run, 0 errored, 0 cached, 0 pre-generated\n/);
    expect(gateLines(result.stdout)).toEqual(['    ✘ rows: no rows were run', '  Result:   FAILED']);
    expect(server.requests.length).toBe(before);
  });

  it('--rows past the end is a usage error before the run starts', async () => {
    const before = server.requests.length;
    const result = await run(['prompts/echo.prompt.mdx', '--rows', '1,7-9']);
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: --rows asks for row 9 but the dataset has only 3 rows (indexes 0-2)\n  hint: row indexes are zero-based and count non-blank lines\n',
    });
    expect(await project.runIds()).toEqual([]);
    expect(server.requests.length).toBe(before);
  });

  it('a missing dataset is an input error, before any call', async () => {
    const before = server.requests.length;
    const result = await run(['prompts/echo.prompt.mdx'], {
      'prompts/echo.prompt.mdx': (await import('node:fs')).readFileSync(new URL('../fixtures/cli/echo/prompts/echo.prompt.mdx', import.meta.url), 'utf8').replace('words.jsonl', 'gone.jsonl'),
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: .*gone\.jsonl.*\n/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(server.requests.length).toBe(before);
  });

  it('a missing prompt file is an input error', async () => {
    const result = await run(['prompts/nope.prompt.mdx']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe('error: prompts/nope.prompt.mdx: no such file or folder\n  hint: give a .prompt.mdx file or a folder holding some\n');
  });

  it('runs each prompt of a folder as its own experiment; the exit code covers all', async () => {
    const result = await run(['prompts', '--rows', '0-1']);
    // echo passes on rows 0-1; shout's numeric eval has no verdict, so both pass
    expect(result.code).toBe(0);
    expect(result.stdout.match(/^SUMMARY$/gm)).toHaveLength(2);
    expect(project && (await project.runIds())).toHaveLength(2);
    expect(result.stdout.split('\n').slice(-3)).toEqual(['', 'Overall:  2 experiments, 4 rows (0 errored): 2 passed, 0 failed → PASSED (exit 0)', '']);
    await project.cleanup();
    const failing = await run(['prompts/shout.prompt.mdx', 'prompts/echo.prompt.mdx']);
    expect(failing.code).toBe(1);
    expect(failing.stdout.match(/^ {2}Result: .*$/gm)).toEqual(['  Result:   PASSED', '  Result:   FAILED']);
    expect(failing.stdout.split('\n').slice(-2)).toEqual(['Overall:  2 experiments, 6 rows (0 errored): 1 passed, 1 failed → FAILED (exit 1)', '']);
  });

  it('several prompts in a machine format: the overall line goes to stderr, stdout stays parseable', async () => {
    project = await cliProject();
    const result = await project.run(['run-experiment', 'prompts', '--rows', '0-1', '--format', 'json'], { server });
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as unknown[]).length).toBe(2);
    expect(result.stderr.split('\n').slice(-2)).toEqual(['Overall:  2 experiments, 4 rows (0 errored): 2 passed, 0 failed → PASSED (exit 0)', '']);
  });

  it('combines several experiments into one json array or one junit document', async () => {
    const json = await run(['prompts', '--rows', '0-1', '--format', 'json']);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as Array<{ run: { promptPath: string }; rows: unknown[] }>;
    expect(parsed.map((doc) => [doc.run.promptPath, doc.rows.length])).toEqual([
      ['prompts/echo.prompt.mdx', 2],
      ['prompts/shout.prompt.mdx', 2],
    ]);
    await project.cleanup();
    const junit = await run(['prompts', '--rows', '0-1', '--format', 'junit']);
    expect(junit.stdout.match(/<\?xml /g)).toHaveLength(1);
    expect(junit.stdout.match(/<testsuites /g)).toHaveLength(1);
    expect(junit.stdout.match(/<testsuite name="prompts\/(echo|shout)\.prompt\.mdx"/g)).toEqual([
      '<testsuite name="prompts/echo.prompt.mdx"',
      '<testsuite name="prompts/shout.prompt.mdx"',
    ]);
    expect(junit.stdout).toMatch(/<testsuites name="agentmark" tests="4" failures="0" errors="0" time="[\d.]+">/);
  });

  it('combines several experiments into one csv with a prompt column and every eval column', async () => {
    const csv = await run(['prompts', '--rows', '0-1', '--format', 'csv']);
    expect(csv.code).toBe(0);
    const lines = csv.stdout.trimEnd().split('\n').map((line) => line.replace(/,\d+,(true|false),/, ',[ms],$1,'));
    expect(lines).toEqual([
      'prompt,index,repeat,name,tags,input,expected_output,output,error,latency_ms,cached,' +
        'exact_score,exact_passed,exact_label,exact_reason,exact_error,length_score,length_passed,length_label,length_reason,length_error',
      'prompts/echo.prompt.mdx,0,0,,,"{""word"":""alpha""}",alpha,alpha,,[ms],false,1,true,,output equals expected,,,,,,',
      'prompts/echo.prompt.mdx,1,0,,,"{""word"":""beta""}",beta,beta,,[ms],false,1,true,,output equals expected,,,,,,',
      'prompts/shout.prompt.mdx,0,0,,,"{""word"":""alpha""}",alpha,"{""word"":""ALPHA""}",,[ms],false,,,,,,10,,,10 chars,',
      'prompts/shout.prompt.mdx,1,0,,,"{""word"":""beta""}",beta,"{""word"":""BETA""}",,[ms],false,,,,,,10,,,10 chars,',
    ]);
  });

  it('with several prompts every jsonl line names its prompt', async () => {
    const jsonl = await run(['prompts', '--rows', '0-1', '--format', 'jsonl']);
    expect(jsonl.code).toBe(0);
    const lines = jsonl.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { prompt: string; index: number });
    expect(lines.map((line) => `${line.prompt}#${line.index}`).sort()).toEqual([
      'prompts/echo.prompt.mdx#0',
      'prompts/echo.prompt.mdx#1',
      'prompts/shout.prompt.mdx#0',
      'prompts/shout.prompt.mdx#1',
    ]);
    expect(Object.keys(lines[0] ?? {})[0]).toBe('prompt');
  });

  it('a broken prompt among several is reported and the others still run; exit 2', async () => {
    const result = await run(['prompts', '--rows', '0-1'], { 'prompts/broken.prompt.mdx': '---\nname: broken\n---\n<User>hi</User>\n' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: prompts\/broken\.prompt\.mdx:1:1: frontmatter has no config block/);
    expect(result.stdout.match(/^SUMMARY$/gm)).toHaveLength(2);
    expect(result.stdout.split('\n').slice(-2)).toEqual(['Overall:  3 experiments, 4 rows (0 errored): 2 passed, 0 failed, 1 could not run → FAILED: an experiment could not run (exit 2)', '']);
  });
});
