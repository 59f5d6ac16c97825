import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { FIXTURES } from '../helpers/temp-project.js';
import { cliProject, normalize, type CliProject } from './cli-project.js';

let server: OpenAIServer;
let project: CliProject;
beforeAll(async () => {
  server = await startOpenAIServer();
  project = await cliProject();
});
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

const expected = (name: string): string => readFileSync(`${FIXTURES}cli/formats/${name}`, 'utf8');

/** Timings are the only thing that changes between runs of the same fixed experiment. */
function stable(text: string, format: string): string {
  let out = normalize(text, project.dir);
  if (format === 'csv') out = out.replace(/^(\d+,\d+,[^,]*,[^,]*,(?:"[^"]*(?:""[^"]*)*"|[^,]*),[^,]*,[^,]*,[^,]*),\d+,/gm, '$1,[...],');
  if (format === 'junit') out = out.replace(/time="[\d.]+"/g, 'time="[...]"');
  return out;
}

// COLUMNS wide enough for the whole table: piped without it, the table is fitted to 100 columns.
const run = (args: string[]) =>
  project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--no-cache', '--concurrency', '1', '--quiet', ...args], { server, env: { COLUMNS: '200' } });

describe('every format prints exactly its report for a small fixed run', () => {
  it.each([
    ['table', 'table.txt'],
    ['json', 'json.txt'],
    ['jsonl', 'jsonl.txt'],
    ['csv', 'csv.txt'],
    ['junit', 'junit.txt'],
  ])('--format %s', async (format, file) => {
    const result = await run(['--format', format]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(stable(result.stdout, format)).toBe(expected(file));
  });

  it('--truncate cuts table cells, 0 keeps them whole', async () => {
    const cut = await run(['--rows', '2', '--truncate', '12']);
    expect(cut.stdout).toContain('│ 2 │ {"word":"ga… │ gamma     │ GAMMA           │ FAIL (0.00 … │');
    const whole = await run(['--rows', '2', '--truncate', '0']);
    expect(whole.stdout).toContain('│ FAIL (0.00 - output "gamma" does not equal expected "GAMMA") │');
  });

  it('--output writes the report to a file and nothing to stdout', async () => {
    // the folder of --output must exist
    const result = await run(['--format', 'jsonl', '--output', 'out/report.jsonl']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --output out\/report\.jsonl: cannot write this file \(its folder does not exist\)\n/);
    const ok = await run(['--format', 'jsonl', '-o', 'report.jsonl']);
    expect(ok.code).toBe(1);
    expect(ok.stdout).toBe('');
    expect(stable(await project.read('report.jsonl'), 'jsonl')).toBe(expected('jsonl.txt'));
  });
});
