import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { runInTerminal } from '../helpers/run-in-terminal.js';
import { cliProject, type CliProject } from './cli-project.js';
import { formatSummary, type RunInfo } from '../../src/report/index.js';
import type { RunSummary } from '../../src/experiment/types.js';

let server: OpenAIServer;
let project: CliProject;
beforeAll(async () => {
  server = await startOpenAIServer();
  project = await cliProject();
});
afterAll(async () => {
  await project.cleanup();
  await server.close();
});

/**
 * What stderr must end with: the SUMMARY block the table prints, built from the run's stored
 * summary by the same function at the same width (piped with no COLUMNS: 100), then the
 * report's path and format.
 */
async function expectedTail(report: string, format: string, width = 100): Promise<string> {
  const [runId = ''] = (await project.runIds()).slice(-1);
  const manifest = JSON.parse(await project.read(`.agentmark/runs/${runId}/manifest.json`)) as { summary: RunSummary };
  const info = { runId, runDir: `.agentmark/runs/${runId}` } as RunInfo;
  return `${[...formatSummary(manifest.summary, info, { width }), `  Report:   ${report} (${format})`].join('\n')}\n`;
}

const EVALS_AT_80 = [
  '  Evals:',
  '    exact  pass 66.7% (2/3, 95% CI 9.4%–99.2%),',
  '           raw mean 0.67 (95% CI 0.00–1.00), 0 errors',
];

/** stderr from its SUMMARY line on (a progress line may come first off a terminal). */
const fromSummary = (stderr: string): string => stderr.slice(stderr.indexOf('SUMMARY'));

describe('-o <file>', () => {
  it.each([
    ['report.json', 'json', (text: string) => expect(Object.keys(JSON.parse(text) as object)).toEqual(['run', 'summary', 'rows'])],
    ['report.jsonl', 'jsonl', (text: string) => expect(text.trimEnd().split('\n').map((l) => (JSON.parse(l) as { index: number }).index).sort()).toEqual([0, 1, 2])],
    ['report.csv', 'csv', (text: string) => expect(text).toMatch(/^index,repeat,name,tags,input,/)],
    ['report.xml', 'junit', (text: string) => expect(text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites /)],
    ['report.md', 'markdown', (text: string) => expect(text).toMatch(/^### ❌ prompts\/echo\.prompt\.mdx · openai\/gpt-4o-mini\n/)],
  ])('%s: the format comes from the extension; stderr has the summary, the verdict and the path', async (file, format, check) => {
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '-o', file], { server });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    check(await project.read(file));
    const told = fromSummary(result.stderr);
    expect(told).toBe(await expectedTail(file, format));
    expect(told).toMatch(/\n {2}Result: {3}FAILED\n/);
  });

  it('--format that the extension contradicts is a usage error (exit 2, nothing written); a matching one or an unknown extension is fine; -q keeps stderr empty', async () => {
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--format', 'csv', '-o', 'out.json', '-q'], { server });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe('error: --format csv does not match -o out.json, which names json\n  hint: drop --format (the extension picks json), or name the file for csv\n');
    await expect(project.read('out.json')).rejects.toThrow();
    const csv = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--format', 'csv', '-o', 'out.data', '-q'], { server });
    expect(csv).toMatchObject({ code: 1, stdout: '', stderr: '' });
    expect(await project.read('out.data')).toMatch(/^index,repeat,name,tags,input,/);
  });

  it('an unknown extension writes the table', async () => {
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '-o', 'report.txt', '-q'], { server });
    expect(result.code).toBe(1);
    expect(await project.read('report.txt')).toMatch(/^┌/);
  });

  it('at COLUMNS=80, piped: the summary on stderr fits 80 columns, every figure kept (its eval line was 90 wide)', async () => {
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '-o', 'narrow.json'], { server, env: { COLUMNS: '80' } });
    const told = fromSummary(result.stderr);
    expect(told).toBe(await expectedTail('narrow.json', 'json', 80));
    for (const line of told.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(80);
    const lines = told.split('\n');
    const at = lines.indexOf('  Evals:');
    expect(lines.slice(at, at + EVALS_AT_80.length)).toEqual(EVALS_AT_80);
  });

  it('on an 80-column terminal: the same summary lines', async () => {
    const terminal = runInTerminal(['run-experiment', 'prompts/echo.prompt.mdx', '-o', 'tty80.json'], { cwd: project.dir, columns: 80, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' } });
    await terminal.exited;
    const lines = fromSummary(terminal.output.replace(/\r\n/g, '\n')).split('\n');
    const at = lines.indexOf('  Evals:');
    expect(lines.slice(at, at + EVALS_AT_80.length)).toEqual(EVALS_AT_80);
    for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(80);
  });

  it('on a terminal the summary, the verdict and the path show after the progress line', async () => {
    const terminal = runInTerminal(['run-experiment', 'prompts/echo.prompt.mdx', '-o', 'tty.json'], { cwd: project.dir, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' } });
    const { code } = await terminal.exited;
    expect(code).toBe(1);
    const shown = terminal.output.replace(/\r\n/g, '\n');
    expect(shown).toContain('\n  Result:   FAILED\n');
    expect(shown).toContain('  Report:   tty.json (json)\n');
    expect(Object.keys(JSON.parse(await project.read('tty.json')) as object)).toEqual(['run', 'summary', 'rows']);
  });
});
