import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GridResult } from '../../src/compare/index.js';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

// Three runs of a two-row conversation dataset: the simulated customer says "refund <n>", then
// "thanks", then the stop text; the assistant answers "ok: <last user turn>", the gpt-4o run in
// capitals. The third run cuts the conversations at max_turns: 1.
const chat = (name: string, maxTurns: number): string =>
  [
    '---',
    `name: ${name}`,
    'text_config:',
    '  model_name: openai/gpt-4o-mini',
    '  temperature: 0',
    'test_settings:',
    '  dataset: ../datasets/talks.jsonl',
    '  evals: [exact]',
    '  conversation:',
    '    simulator: ./customer.prompt.mdx',
    `    max_turns: ${maxTurns}`,
    '---',
    '',
    '<System>You help customers.</System>',
    '',
  ].join('\n');
const CUSTOMER = ['---', 'name: customer', 'text_config:', '  model_name: openai/gpt-4o-mini', '---', '', '<System>You are the customer {props.scenario.n}.</System>', ''].join('\n');
const ROWS = [0, 1].map((n) => JSON.stringify({ input: {}, scenario: { n }, expected_output: 'ok: thanks' })).join('\n') + '\n';

let server: OpenAIServer;
let project: CliProject;
let ids: string[];
beforeAll(async () => {
  server = await startOpenAIServer({
    handler: (request) => {
      const customer = /You are the customer (\d)/.exec(request.messagesText);
      if (customer) {
        // The simulator sees its own earlier lines as assistant turns.
        const said = (request.body['messages'] as Array<{ role: string }>).filter((m) => m.role === 'assistant').length;
        return { text: [`refund ${customer[1]}`, 'thanks'][said] ?? '###STOP###' };
      }
      const answer = `ok: ${request.lastUserText}`;
      return { text: request.model === 'gpt-4o' ? answer.toUpperCase() : answer };
    },
  });
  project = await cliProject({
    'datasets/talks.jsonl': ROWS,
    'prompts/chat.prompt.mdx': chat('chat', 6),
    'prompts/chat-short.prompt.mdx': chat('chat-short', 1),
    'prompts/customer.prompt.mdx': CUSTOMER,
  });
  const run = (args: string[]) => project.run(['run-experiment', ...args, '--no-cache', '--quiet', '--format', 'jsonl'], { server });
  await run(['prompts/chat.prompt.mdx']);
  await run(['prompts/chat.prompt.mdx', '--model', 'openai/gpt-4o']);
  await run(['prompts/chat-short.prompt.mdx']);
  ids = await project.runIds();
}, 60_000);
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

describe('the results grid of conversation runs', () => {
  // Turns are user turns, as max_turns counts them: two (refund, thanks) ended by stop; one at max_turns: 1.
  it('json: each cell is the last assistant turn, with its user turns, end and row (where its transcript is)', async () => {
    const result = await project.run(['compare', ...ids, '--format', 'json']);
    expect(result.stderr).toBe('');
    const grid = JSON.parse(result.stdout) as GridResult;
    expect(grid.rows.map((row) => row.cells.map((c) => [c.output, c.conversation, c.evals['exact']?.passed]))).toEqual([
      [
        ['ok: thanks', { row: 0, turns: 2, endedBy: 'stop' }, true],
        ['OK: THANKS', { row: 0, turns: 2, endedBy: 'stop' }, false],
        ['ok: refund 0', { row: 0, turns: 1, endedBy: 'max_turns' }, false],
      ],
      [
        ['ok: thanks', { row: 1, turns: 2, endedBy: 'stop' }, true],
        ['OK: THANKS', { row: 1, turns: 2, endedBy: 'stop' }, false],
        ['ok: refund 1', { row: 1, turns: 1, endedBy: 'max_turns' }, false],
      ],
    ]);
  });

  it('the table at 80 columns, piped: each cell keeps its [turns end] note beside its verdicts; a line says how to open a transcript', async () => {
    const result = await project.run(['compare', ...ids], { env: { COLUMNS: '80' } });
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(80);
    const table = lines.filter((line) => line.startsWith('│ 0 ') || line.startsWith('│ 1 '));
    // Three runs in 80 columns: the outputs give way first, the note stays with the verdicts.
    expect(table).toEqual(['│ 0 │ [2t stop] · exact PASS │ [2t stop] · exact FAIL │ [1t max] · exact FAIL │', '│ 1 │ [2t stop] · exact PASS │ [2t stop] · exact FAIL │ [1t max] · exact FAIL │']);
    expect(result.stdout.endsWith(`Conversations show their last assistant turn; a transcript: agentmark view <run>\n  --row <#> (e.g. agentmark view ${ids[0]} --row 0)\n`)).toBe(true);
  });

  it('the table at 140 columns: the last assistant turn leads each cell', async () => {
    const result = await project.run(['compare', ...ids], { env: { COLUMNS: '140' } });
    const row = result.stdout.split('\n').find((line) => line.startsWith('│ 0 '));
    // The timings (latency, cost) are left out before the output is cut; whether they fit beside
    // it depends on how long the measured latency prints (`9ms`, `47ms`, `1.2s`), so they are not compared.
    const withoutTimings = (cell: string): string => cell.trim().replace(/ · [\d.]+m?s · \$[\d.]+$/, '');
    expect(row?.split('│').slice(3, 5).map(withoutTimings)).toEqual(['ok: thanks · [2t stop] · exact PASS', 'OK: THANKS · [2t stop] · exact FAIL']);
  });

  it('agentmark view <run> --row <n> prints that row\'s page, where its transcript is', async () => {
    let child: ChildProcess | undefined;
    const done = project.run(['view', ids[2] as string, '--row', '1', '--port', '0'], { onSpawn: (c) => (child = c) });
    // The URL line is the event to wait for; then Ctrl-C stops the server.
    const line = await new Promise<string>((resolve) => {
      let text = '';
      child?.stdout?.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (text.includes('\n')) resolve(text);
      });
    });
    child?.kill('SIGINT');
    const result = await done;
    expect(line).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/#/runs/${ids[2]}/rows/1\\n$`));
    expect([result.code, result.stderr]).toEqual([0, '']);
  });

  it('--row without a run is a usage error', async () => {
    const result = await project.run(['view', '--row', '1']);
    expect([result.code, result.stderr]).toEqual([2, 'error: --row needs a run\n  hint: e.g. `agentmark view latest --row 0`\n']);
  });
});
