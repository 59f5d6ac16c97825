import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoResponder, startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, normalize, type CliProject } from './cli-project.js';

let server: OpenAIServer;
let project: CliProject;
let first: string;
const shout = (request: { lastUserText: string }) => ({ text: request.lastUserText.toUpperCase() });
const run = (args: string[]) => project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--no-cache', '--quiet', '--concurrency', '1', ...args], { server });

beforeAll(async () => {
  server = await startOpenAIServer();
  project = await cliProject();
  await run([]);
  [first] = (await project.runIds()) as [string];
}, 30_000);
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

describe('run-experiment --baseline', () => {
  it('runs, then prints the comparison after the summary and applies the gate', async () => {
    server.setHandler(shout);
    const result = await run(['--baseline', 'latest', '--max-drop', '10']);
    expect(result.code).toBe(1);
    const out = normalize(result.stdout);
    const summary = out.indexOf('SUMMARY');
    const compare = out.indexOf('COMPARE (head − base)');
    expect(summary).toBeGreaterThan(0);
    expect(compare).toBeGreaterThan(summary);
    expect(out).toContain(`  base: <run-id> · prompts/echo.prompt.mdx`);
    expect(out).toContain('Changed rows: 2 regressed, 1 improved');
    // 2 regressed and 1 improved of 3 rows: a 33.3-point observed drop, but --max-drop is a
    // one-sided test of the drop against the margin, and 3 pairs cannot show it.
    expect(out.trimEnd().split('\n').at(-1)).toBe('Gate: ? inconclusive: exact: no significant drop, but not detectable with 3 pairs; about 640 more paired rows needed to detect a 10-point drop (643 in all)');
    expect(result.stdout).toContain(`base: ${first} ·`);
  });

  it('json carries the comparison; other formats say the gate on stderr', async () => {
    server.setHandler(echoResponder);
    const json = await run(['--baseline', first, '--format', 'json']);
    const document = JSON.parse(json.stdout) as { comparison: { base: { id: string }; gate: { message: string } }; rows: unknown[] };
    expect(document.comparison.base.id).toBe(first);
    expect(document.rows).toHaveLength(3);
    expect(json.stderr).toBe(`baseline ${first}: inconclusive: exact: no significant drop, but not detectable with 3 pairs; about 131 more paired rows needed to detect a 5-point drop (134 in all)\n`);
    expect(json.code).toBe(1); // the run's own gate: gamma fails
    // --gate regression: only the comparison decides, and it did not regress.
    const onlyRegression = await run(['--baseline', first, '--format', 'json', '--gate', 'regression']);
    expect(onlyRegression.code).toBe(0);
    // ... unless inconclusive is asked to fail too.
    expect((await run(['--baseline', first, '--format', 'json', '--gate', 'regression', '--fail-on-inconclusive'])).code).toBe(1);
  });

  it('an unknown baseline is exit 2 before any model call; conflicting flags are usage errors', async () => {
    const before = server.requests.length;
    const result = await run(['--baseline', 'latest~99']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: latest~99: there are \d+ finished runs of prompts\/echo\.prompt\.mdx\n/);
    expect(server.requests.length).toBe(before);
    expect((await run(['--baseline', 'latest', '--baseline-commit', 'HEAD'])).stderr).toMatch(/^error: --baseline and --baseline-commit cannot be used together/);
    expect((await run(['--max-drop', '5'])).stderr).toMatch(/^error: --alpha, --max-drop and --fail-on-inconclusive apply to a baseline comparison/);
    expect((await run(['--fail-on-inconclusive'])).code).toBe(2);
    expect((await run(['--gate', 'regression'])).stderr).toBe('error: --gate regression gates on the baseline comparison alone\n  hint: add --baseline <run>\n');
    expect((await run(['--gate', 'evals'])).stderr).toBe('error: --gate evals: expected all or regression\n');
    expect(server.requests.length).toBe(before);
    expect((await run(['--baseline-commit', 'HEAD'])).stderr).toMatch(/^error: @HEAD: git does not know this ref here/);
  });
});

describe('run-experiment --baseline of another dataset', () => {
  it('no row in common: the run is reported, then exit 2 naming the datasets, never a green gate', async () => {
    const other = await cliProject({ 'datasets/words.jsonl': ['delta', 'epsilon'].map((word) => JSON.stringify({ input: { word }, expected_output: word })).join('\n') });
    try {
      server.setHandler(echoResponder);
      const args = ['run-experiment', 'prompts/echo.prompt.mdx', '--no-cache', '--quiet', '--concurrency', '1'];
      expect((await other.run(args, { server })).code).toBe(0);
      // The baseline is a folder of the first project: a run of the three-word dataset.
      const result = await other.run([...args, '--baseline', `${project.dir}/.agentmark/runs/${first}`, '--gate', 'regression'], { server });
      expect(result.code).toBe(2);
      expect(result.stdout).toContain('SUMMARY');
      expect(result.stdout).not.toContain('COMPARE');
      expect(normalize(result.stderr)).toMatch(
        /^error: no rows in common between base <run-id> \(3 rows\) and head <run-id> \(2 rows\); they differ in dataset \(base datasets\/words\.jsonl [0-9a-f]{12}, head datasets\/words\.jsonl [0-9a-f]{12}\)\n  hint: rows pair by their content/,
      );
    } finally {
      await other.cleanup();
    }
  });
});

describe('run-experiment --baseline-commit with regression_tolerance', () => {
  it("reports AgentMark's per-row check next to the paired test, and fails on it", async () => {
    const scored = await cliProject();
    try {
      const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], { cwd: scored.dir, encoding: 'utf8' });
      const prompt = (await scored.read('prompts/echo.prompt.mdx')).replace('  evals: [exact]', '  evals: [exact]\n  regression_tolerance: 0.5');
      await scored.write('prompts/echo.prompt.mdx', prompt);
      git('init', '-q');
      git('add', '-A');
      git('commit', '-q', '-m', 'base');
      server.setHandler(echoResponder);
      const args = ['run-experiment', 'prompts/echo.prompt.mdx', '--no-cache', '--quiet'];
      expect((await scored.run(args, { server })).code).toBe(1);
      server.setHandler(shout);
      const result = await scored.run([...args, '--baseline-commit', 'HEAD'], { server });
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('regression_tolerance 0.5: 2 of 3 row × eval scores fell more than 50% below base\n  #0 exact: 1.00 → 0.00\n  #1 exact: 1.00 → 0.00\n');
      expect(result.stdout).toContain('Gate: ? inconclusive: exact: no significant drop, but not detectable with 3 pairs');
    } finally {
      await scored.cleanup();
    }
  });
});
