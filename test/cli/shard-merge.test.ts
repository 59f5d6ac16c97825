import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readViewIndex } from '../../src/store/index.js';
import { RunIndex } from '../../src/view/run-index.js';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { runInTerminal } from '../helpers/run-in-terminal.js';
import { cliProject, normalize, type CliProject } from './cli-project.js';

// Twelve words echoed back; the expected output of every fourth is upper case, so 3 rows fail.
const WORDS = ['ant', 'bee', 'cat', 'dog', 'eel', 'fox', 'gnu', 'hen', 'ibis', 'jay', 'kiwi', 'lark'];
const dataset = `${WORDS.map((word, i) => JSON.stringify({ input: { word }, expected_output: i % 4 === 0 ? word.toUpperCase() : word })).join('\n')}\n`;

let server: OpenAIServer;
let project: CliProject;
let whole: string;
let shards: string[];
// --no-cache: the shards call the model as the whole run did, so their summaries match it (not "cached").
const experiment = (args: string[]) => project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--no-cache', '--format', 'jsonl', ...args], { server });

beforeAll(async () => {
  server = await startOpenAIServer();
  project = await cliProject({ 'datasets/words.jsonl': dataset });
  expect((await experiment(['--concurrency', '1'])).code).toBe(1);
  whole = (await project.runIds())[0] as string;
  for (const shard of ['1/3', '2/3', '3/3']) {
    const result = await experiment(['--shard', shard]);
    expect(result.stderr).toBe('');
    expect([0, 1]).toContain(result.code);
  }
  shards = (await project.runIds()).filter((id) => id !== whole);
}, 60_000);
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

describe('run-experiment --shard', () => {
  it('runs a part of the rows; the three parts are the whole dataset, each row once', async () => {
    const words = await Promise.all(shards.map(async (id) => (await project.results(id)).map((row) => (row.input as { word: string }).word)));
    expect(words.flat().sort()).toEqual([...WORDS].sort());
    for (const part of words) expect(part.length).toBeGreaterThan(0);
    const manifest = JSON.parse(await project.read(`.agentmark/runs/${shards[1]}/manifest.json`)) as Record<string, unknown>;
    expect(manifest.shard).toEqual({
      index: 2,
      count: 3,
      evals: ['exact'],
      scoreRanges: { exact: [0, 1] },
      schemas: { exact: { type: 'boolean', scorer: 'exact_match', description: 'Output equals the expected output' } },
    });
    // The same shard again picks the same rows.
    const again = await experiment(['--shard', '2/3']);
    const picked = again.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { input: { word: string } }).input.word);
    expect(picked.sort()).toEqual([...(words[1] as string[])].sort());
  });

  it.each([
    ['0/3', '--shard "0/3": shard 0 does not exist; shards are numbered 1 to 3'],
    ['4/3', '--shard "4/3": shard 4 does not exist; shards are numbered 1 to 3'],
    ['2-3', '--shard "2-3": expected <i>/<n>'],
  ])('--shard %s is a usage error (exit 2) before anything runs', async (shard, message) => {
    const before = server.requests.length;
    const result = await experiment(['--shard', shard]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: ${message}\n  hint: write the shard as <i>/<n>, 1 ≤ i ≤ n, e.g. --shard 2/4 (the second of four)\n`);
    expect(server.requests.length).toBe(before);
  });
});

describe('agentmark merge', () => {
  it('builds one run from the shards that runs, runs show and compare treat like any run', async () => {
    const merged = await project.run(['merge', ...shards]);
    expect(merged.code).toBe(1);
    const id = (await project.runIds()).at(-1) as string;
    const lines = merged.stdout.split('\n');
    // Piped, fitted to 100 columns: the run id goes under the line it ends.
    expect(lines.slice(0, 2)).toEqual(['Merged 3 of 3 shards of prompts/echo.prompt.mdx · openai/gpt-4o-mini into run', `  ${id}`]);
    const counts = await Promise.all(shards.map(async (shard) => (await project.results(shard)).length));
    expect(lines.slice(2, 5)).toEqual(shards.map((shard, i) => `  shard ${i + 1}/3  ${shard}  ${counts[i]} rows`));
    expect(merged.stdout).toContain(`  Run:      ${id} (.agentmark/runs/${id})`);
    expect(merged.stdout).toContain('    ✘ evals: 3 of 12 eval results did not pass');

    const list = JSON.parse((await project.run(['runs', '--format', 'json', '--limit', '1'])).stdout) as Array<Record<string, unknown>>;
    expect(list[0]).toMatchObject({ id, rows: 12, errored: 0, status: 'completed', evals: [{ name: 'exact', passRate: 0.75 }] });

    const shown = await project.run(['runs', 'show', 'latest', '--format', 'jsonl']);
    expect(shown.code).toBe(1);
    expect(shown.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { output: string }).output)).toEqual(WORDS);
    // Timings aside (a latency may print as ms or s), the merged report is the whole run's.
    const summaryOf = async (run: string) => normalize((await project.run(['runs', 'show', run, '--format', 'markdown'])).stdout).replace(/\[\.\.\.\]m?s/g, '[...]');
    expect(await summaryOf(id)).toBe(await summaryOf(whole));

    const compared = await project.run(['compare', whole, id, '--format', 'json', '--fail-on-regression']);
    expect(compared.code).toBe(0);
    const result = JSON.parse(compared.stdout) as { pairing: Record<string, number>; differences: unknown[]; changedRows: { regressed: number; improved: number } };
    expect(result.pairing).toMatchObject({ paired: 12, onlyInBase: 0, onlyInHead: 0 });
    expect(result.differences).toEqual([]);
    expect(result.changedRows).toMatchObject({ regressed: 0, improved: 0 });
  });

  it('the summary fits 80 columns piped (COLUMNS=80) as run-experiment\'s does: prose wraps at words, the run folder goes under the id', async () => {
    const merged = await project.run(['merge', ...shards], { env: { COLUMNS: '80' } });
    expect(merged.code).toBe(1);
    const id = (await project.runIds()).at(-1) as string;
    const text = merged.stdout.replaceAll(id, 'RUN-ID-···················');
    for (const line of text.split('\n')) expect(Array.from(line).length, line).toBeLessThanOrEqual(80);
    const counts = await Promise.all(shards.map(async (shard) => (await project.results(shard)).length));
    const shardLines = shards.map((shard, i) => `  shard ${i + 1}/3  ${shard}  ${counts[i]} row${counts[i] === 1 ? '' : 's'}`);
    // A latency prints as ms or s (format-duration.ts): its figures are the machine's. The
    // statistics are the whole run's (the test above compares the two summaries).
    expect(text.replace(/\b\d+(?:\.\d)?m?s\b/g, 'T')).toBe(
      [
        'Merged 3 of 3 shards of prompts/echo.prompt.mdx · openai/gpt-4o-mini into run',
        '  RUN-ID-···················',
        ...shardLines,
        '',
        'SUMMARY',
        '  Rows:     12 run, 0 errored, 0 cached, 0 pre-generated',
        '  Evals:',
        '    exact  pass 75.0% (9/12, 95% CI 42.8%–94.5%),',
        '           raw mean 0.75 (95% CI 0.46–1.00), 0 errors',
        '  Latency:  p50 T, p95 T (live calls only)',
        '            mean T ± T std, min T, max T, 12 calls',
        '  Tokens:   72 in / 12 out',
        '  Cost:     <$0.0001',
        '  Gates:',
        '    ✘ evals: 3 of 12 eval results did not pass',
        '    ✔ errors: no row errored',
        '  Result:   FAILED',
        '  Run:      RUN-ID-···················',
        '            (.agentmark/runs/RUN-ID-···················)',
        '',
      ].join('\n'),
    );
    // Piped with no COLUMNS, 100 columns, as every command's.
    const wide = await project.run(['merge', ...shards]);
    for (const line of wide.stdout.split('\n')) expect(Array.from(line).length, line).toBeLessThanOrEqual(100);
  });

  it('-o writes the merged run to a folder, a run reference like any other', async () => {
    const folders = shards.map((id) => join('.agentmark', 'runs', id));
    const result = await project.run(['merge', ...folders, '-o', 'merged-run']);
    expect(result.code).toBe(1);
    const merged = join(project.dir, 'merged-run');
    expect((await readdir(merged)).sort()).toEqual(['manifest.json', 'results.jsonl', 'view-index']);
    // The merged run has the viewer's index of its rows, as any run: the same as reading them.
    const manifest = JSON.parse(await readFile(join(merged, 'manifest.json'), 'utf8')) as { integrity: { rows: number; sha256: string }; summary: { evals: Array<{ name: string }> } };
    const evalNames = manifest.summary.evals.map((e) => e.name);
    const stored = await readViewIndex(merged, { resultsPath: join(merged, 'results.jsonl'), evalNames, integrity: manifest.integrity });
    const scan = new RunIndex(join(merged, 'results.jsonl'), evalNames);
    await scan.refresh();
    expect(stored?.columns).toEqual(scan.columns);
    expect(stored?.starts).toEqual(scan.starts);
    expect(stored?.lengths).toEqual(scan.lengths);
    expect(stored?.results).toEqual({ bytes: (scan.starts.at(-1) ?? 0) + (scan.lengths.at(-1) ?? 0), ...manifest.integrity });
    const shown = await project.run(['runs', 'show', 'merged-run', '--format', 'jsonl']);
    expect(shown.stdout.trim().split('\n')).toHaveLength(12);
  });

  it('refuses a missing shard (exit 2, naming the runs); --allow-partial merges and says what is missing', async () => {
    const given = [shards[0] as string, shards[2] as string];
    const refused = await project.run(['merge', ...given]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `error: shard 2/3 is missing: got ${given[0]} (shard 1/3), ${given[1]} (shard 3/3)\n` +
        '  hint: give every shard, or --allow-partial to merge what is there (the merged run then records what is missing)\n',
    );
    const partial = await project.run(['merge', ...given, '--allow-partial']);
    expect(partial.stderr).toBe("warning: incomplete: shard 2/3 is missing; this run and its summary cover the other shards' rows only\n");
    expect(partial.stdout).toContain("\n  incomplete: shard 2/3 is missing; this run and its summary cover the other shards' rows only\n");
    // On an 80-column terminal the warning (stderr) and the note (stdout) wrap at words too.
    const terminal = runInTerminal(['merge', ...given, '--allow-partial'], { cwd: project.dir, columns: 80 });
    expect(await terminal.exited).toMatchObject({ code: 1 });
    const shown = terminal.output.replace(/\r\n/g, '\n');
    expect(shown).toMatch(/^warning: incomplete: shard 2\/3 is missing; this run and its summary cover the\n  other shards' rows only\nMerged 2 of 3 shards of /);
    expect(shown).toContain("\n  incomplete: shard 2/3 is missing; this run and its summary cover the other\n    shards' rows only\n");
    for (const line of shown.split('\n')) expect(Array.from(line).length, line).toBeLessThanOrEqual(80);
    const id = (await project.runIds()).at(-1) as string;
    const manifest = JSON.parse(await project.read(`.agentmark/runs/${id}/manifest.json`)) as { merged: { missing: number[] } };
    expect(manifest.merged.missing).toEqual([2]);
  });

  it('refuses runs that are not shards, and needs at least one run', async () => {
    const result = await project.run(['merge', whole]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: run ${whole} is not a shard: it was not run with --shard <i>/<n>\n`);
    const none = await project.run(['merge']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('error: merge needs the shard runs to merge');
    const help = await project.run(['merge', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: agentmark merge <runs\.\.\.> \[-o <dir>\] \[--allow-partial\]\n/);
    for (const flag of ['-o, --output <dir>', '--allow-partial', '--project <dir>']) expect(help.stdout).toContain(flag);
  });
});
