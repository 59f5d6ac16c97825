import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

let server: OpenAIServer;
let project: CliProject | undefined;
beforeAll(async () => {
  server = await startOpenAIServer();
});
afterAll(() => server.close());
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const suite =
  '{"name": "first", "tags": ["smoke", "fast"], "input": {"word": "alpha"}, "expected_output": "alpha"}\n' +
  '{"name": "second", "tags": ["slow"], "input": {"word": "beta"}, "expected_output": "beta"}\n' +
  '{"tags": ["smoke"], "input": {"word": "gamma"}, "expected_output": "gamma"}\n' +
  '{"name": "fourth", "input": {"word": "delta"}, "expected_output": "delta"}\n';

async function run(args: string[], dataset = suite, env: NodeJS.ProcessEnv = { COLUMNS: '300' }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  project = await cliProject({ 'datasets/words.jsonl': dataset });
  return project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', ...args], { server, env });
}

/** The words the model was asked for, in any order (rows run concurrently). */
const asked = (from: number): string[] =>
  server.requests
    .slice(from)
    .map((r) => JSON.stringify(r.body).match(/"content":"(alpha|beta|gamma|delta)"/)?.[1] ?? '?')
    .sort();

// Several CLI runs per test: slow on a loaded machine.
describe('rows with names and tags', { timeout: 60_000 }, () => {
  it('--list prints the selected rows with the count and runs nothing', async () => {
    const before = server.requests.length;
    const result = await run(['--tag', 'smoke', '--list']);
    expect(result).toEqual({
      code: 0,
      signal: null,
      stderr: '',
      stdout:
        'prompts/echo.prompt.mdx: 2 of 4 rows of datasets/words.jsonl selected\n' +
        '  #  name   tags        input\n' +
        '  0  first  smoke,fast  {"word":"alpha"}\n' +
        '  2  -      smoke       {"word":"gamma"}\n',
    });
    expect(server.requests.length).toBe(before);
    expect(await project?.runIds()).toEqual([]);
  });

  it('--list without a filter lists every row; long inputs are cut', async () => {
    const long = `{"input": {"word": "${'x'.repeat(80)}"}}\n`;
    // The input takes what is left of the line: 80 columns less 17 for the rest.
    const result = await run(['--list'], long, { COLUMNS: '80' });
    expect(result.stdout).toBe(
      'prompts/echo.prompt.mdx: 1 of 1 row of datasets/words.jsonl selected\n' +
        '  #  name  tags  input\n' +
        `  0  -     -     {"word":"${'x'.repeat(53)}…\n`,
    );
    expect(result.code).toBe(0);
  });

  it('an empty selection is exit 2 with the known tags and names and the closest match, also for --list', async () => {
    const before = server.requests.length;
    for (const extra of [[], ['--list']]) {
      const result = await run(['--tag', 'smok', ...extra]);
      expect(result).toEqual({
        code: 2,
        signal: null,
        stdout: '',
        stderr:
          'error: datasets/words.jsonl: no rows matched --tag smok\n' +
          '  hint: did you mean "smoke"? known tags: fast, slow, smoke; known names: first, second, fourth\n',
      });
      await project?.cleanup();
    }
    const byName = await run(['--name', 'nope']);
    expect(byName.stderr).toBe('error: datasets/words.jsonl: no rows matched --name nope\n  hint: known tags: fast, slow, smoke; known names: first, second, fourth\n');
    expect(byName.code).toBe(2);
    expect(server.requests.length).toBe(before);
    expect(await project?.runIds()).toEqual([]);
  });

  it('a filter that keeps rows which sampling then drops is an empty selection too', async () => {
    const result = await run(['--tag', 'slow', '--rows', '0']);
    expect(result.stderr).toBe(
      'error: datasets/words.jsonl: no rows matched --tag slow (1 row matched, none left after --rows/--sample/--split)\n' +
        '  hint: known tags: fast, slow, smoke; known names: first, second, fourth\n',
    );
    expect(result.code).toBe(2);
  });

  it('--tag is any-of, a+b is all-of, --name adds rows; only those rows are called', async () => {
    let before = server.requests.length;
    expect((await run(['--tag', 'smoke'])).code).toBe(0);
    expect(asked(before)).toEqual(['alpha', 'gamma']);
    await project?.cleanup();
    before = server.requests.length;
    expect((await run(['--tag', 'smoke+fast', '--name', 'fourth'])).code).toBe(0);
    expect(asked(before)).toEqual(['alpha', 'delta']);
    await project?.cleanup();
    before = server.requests.length;
    expect((await run(['--tag', 'slow', '--tag', 'fast'])).code).toBe(0);
    expect(asked(before)).toEqual(['alpha', 'beta']);
  });

  it('selection comes first, then --rows / --sample / --split over the rows it kept', async () => {
    const rows = await run(['--tag', 'smoke', '--rows', '1-3', '--list']);
    expect(rows.stdout.split('\n').slice(2, -1)).toEqual(['  2  -     smoke  {"word":"gamma"}']);
    await project?.cleanup();
    // --sample-rows 2 draws from the 3 rows named or tagged smoke, never from the others.
    const sample = await run(['--tag', 'smoke', '--name', 'fourth', '--sample-rows', '2', '--seed', '3', '--list']);
    expect(sample.stdout.split('\n')[0]).toBe('prompts/echo.prompt.mdx: 2 of 4 rows of datasets/words.jsonl selected');
    const indexes = sample.stdout.split('\n').slice(2, -1).map((line) => Number(line.trim().split(' ')[0]));
    expect(indexes.every((i) => [0, 2, 3].includes(i))).toBe(true);
    await project?.cleanup();
    // train and test still partition the filtered rows.
    const train = await run(['--tag', 'smoke', '--name', 'fourth', '--split', 'train:50', '--list']);
    await project?.cleanup();
    const test = await run(['--tag', 'smoke', '--name', 'fourth', '--split', 'test:50', '--list']);
    const listed = (stdout: string): number[] => (stdout === '' ? [] : stdout.split('\n').slice(2, -1).map((line) => Number(line.trim().split(' ')[0])));
    expect([...listed(train.stdout), ...listed(test.stdout)].sort()).toEqual([0, 2, 3]);
  });

  it('names and tags show in the table and json reports and in junit test-case names', async () => {
    const table = await run(['--name', 'first']);
    expect(table.stdout).toMatch(/│ 0 first \[smoke,fast\] +│ \{"word":"alpha"\}/);
    await project?.cleanup();
    const json = await run(['--name', 'first', '--format', 'json']);
    const document = JSON.parse(json.stdout) as { rows: Array<{ metadata: unknown }> };
    expect(document.rows.map((row) => row.metadata)).toEqual([{ name: 'first', tags: ['smoke', 'fast'] }]);
    await project?.cleanup();
    const junit = await run(['--name', 'first', '--format', 'junit']);
    expect(junit.stdout).toContain('<testcase name="row 0 first [smoke,fast] · exact"');
  });

  it('a duplicate name is an input error naming both lines; bad names and tags name their line', async () => {
    const duplicate = await run([], `${suite}{"name": "second", "input": {"word": "x"}}\n`);
    expect(duplicate).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: datasets/words.jsonl:5: row name "second" is already used on line 2\n  hint: row names must be unique within a dataset: rename one of the two rows\n',
    });
    await project?.cleanup();
    const badTags = await run([], '{"tags": "smoke", "input": {"word": "x"}}\n');
    expect(badTags.stderr).toBe(
      'error: datasets/words.jsonl:1: "tags" must be an array of non-empty strings (got "smoke")\n' +
        '  hint: e.g. {"name": "refund-basic", "tags": ["smoke", "billing"], "input": {...}}\n',
    );
    expect(badTags.code).toBe(2);
  });

  it('--tag with an empty part is a usage error', async () => {
    const result = await run(['--tag', 'smoke+', '--list']);
    expect(result).toMatchObject({ code: 2, stderr: 'error: --tag "smoke+": an empty tag\n  hint: e.g. --tag smoke, or --tag smoke+billing for rows with both\n' });
  });
});
