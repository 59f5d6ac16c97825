import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

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

type Row = { index: number; input: { word: string }; expectedOutput: unknown; output: unknown; metadata: unknown; evals: Record<string, { passed?: boolean; reason?: string }> };
const parse = (text: string): Row[] => text.trimEnd().split('\n').map((line) => JSON.parse(line) as Row).sort((a, b) => a.input.word.localeCompare(b.input.word));

describe('score --outputs <our own report>', () => {
  it('rescores a run\'s jsonl report (expectedOutput, output) after a scorer changed, with no model call', async () => {
    const run = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '-q', '-o', 'report.jsonl'], { server });
    expect(run.code).toBe(1); // gamma is not GAMMA
    const calls = server.requests.length;
    // the scorer is edited: case no longer matters
    const json = JSON.parse(await project.read('agentmark.json')) as { scores: Record<string, object> };
    json.scores['exact'] = { type: 'boolean', scorer: 'exact_match', options: { ignoreCase: true } };
    await project.write('agentmark.json', JSON.stringify(json));

    const rescored = await project.run(['score', 'prompts/echo.prompt.mdx', '--outputs', 'report.jsonl', '-q', '--format', 'jsonl']);
    expect(rescored.stderr).toBe('');
    expect(rescored.code).toBe(0);
    expect(server.requests.length).toBe(calls);
    const rows = parse(rescored.stdout);
    expect(rows.map((row) => [row.input.word, row.expectedOutput, row.output, row.evals['exact']?.passed])).toEqual([
      ['alpha', 'alpha', 'alpha', true],
      ['beta', 'beta', 'beta', true],
      ['gamma', 'GAMMA', 'gamma', true],
    ]);
  });

  it('a row of the report that errored has no output to score', async () => {
    const report = JSON.stringify({ index: 0, line: 1, repeat: 0, input: { word: 'x' }, expectedOutput: 'x', metadata: {}, output: null, toolCalls: [], evals: {}, error: 'boom', cached: false, retries: 0 });
    await project.write('errored.jsonl', `${report}\n`);
    const result = await project.run(['score', 'prompts/echo.prompt.mdx', '--outputs', 'errored.jsonl', '-q', '--format', 'jsonl']);
    expect(result.code).toBe(1);
    const [row] = parse(result.stdout) as Array<Row & { error?: string }>;
    expect(row?.error).toBe('this row has no "output" to score');
  });
});
