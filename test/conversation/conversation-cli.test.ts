/**
 * Conversations run by the built CLI against the loopback OpenAI server: the done-when
 * (10 conversations of 3 scripted user turns, replayed with --cache-only), and kill -9 in the
 * middle of a conversation then --resume, which sends no request already answered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIRequestInfo, type OpenAIServer } from '../helpers/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';
import { readResults, runIds } from '../faults/fault-project.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const KEY = 'sk-test-conversation';

/** The simulated user's three-line script, said in turn, then the stop text. */
const SCRIPT = ['I was charged twice', 'Order 1234', 'Thank you'];

/** The simulator (model sim-user) says the line after its own earlier turns; the assistant answers `re: <last user turn>`. */
function responder(request: OpenAIRequestInfo): { text: string } {
  if (request.model === 'sim-user') {
    const said = request.messagesText.split('\n').filter((line) => line.startsWith('assistant:')).length;
    return { text: SCRIPT[said] ?? '###STOP###' };
  }
  return { text: `re: ${request.lastUserText}` };
}

async function project(rows: number): Promise<{ dir: string; server: OpenAIServer; env: NodeJS.ProcessEnv }> {
  const dataset = Array.from({ length: rows }, (_, i) => JSON.stringify({ input: { customer: `C${i}` }, scenario: { goal: `refund ${i}` } })).join('\n');
  const made = await tempProject({
    'agentmark.json': JSON.stringify({
      version: '2.0.0',
      mdxVersion: '1.0',
      agentmarkPath: '.',
      scores: { polite: { type: 'boolean', scorer: 'contains', options: { value: 're:' } }, ended: { type: 'boolean', scorer: 'conversation_ended' } },
    }),
    'prompts/support.prompt.mdx': [
      '---',
      'name: support',
      'text_config:',
      '  model_name: openai/gpt-4o-mini',
      'test_settings:',
      '  dataset: talks.jsonl',
      '  evals: [ended]',
      '  turn_evals: [polite]',
      '  conversation:',
      '    simulator: ./customer.prompt.mdx',
      '---',
      '<System>You help {props.customer}.</System>',
      '',
    ].join('\n'),
    'prompts/customer.prompt.mdx': '---\nname: customer\ntext_config:\n  model_name: openai/sim-user\n---\n<System>You are a customer. Goal: {props.goal}</System>\n',
    'prompts/talks.jsonl': `${dataset}\n`,
  });
  const server = await startOpenAIServer({ handler: responder });
  cleanups.push(made.cleanup, () => server.close());
  return { dir: made.dir, server, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY } };
}

interface Row {
  index: number;
  conversation?: { messages: Array<{ role: string; content: string }>; turns: Array<{ role: string; evals?: Record<string, { passed?: boolean }> }>; endedBy: string };
  simulator?: { calls: number };
}

const EXPECTED = ['user: I was charged twice', 'assistant: re: I was charged twice', 'user: Order 1234', 'assistant: re: Order 1234', 'user: Thank you', 'assistant: re: Thank you'];

describe('conversations through the CLI', () => {
  it('done when: 10 conversations of 3 user and 3 assistant turns ended by stop, 3 turn-eval results each; --cache-only replays them with no request', async () => {
    const { dir, server, env } = await project(10);
    const args = ['run-experiment', 'prompts/support.prompt.mdx', '--format', 'json', '--quiet'];
    const live = await runCli(args, { cwd: dir, env, timeoutMs: 60_000 });
    expect(live.stderr).toBe('');
    expect(live.code).toBe(0);
    // 10 × (4 simulator calls, the last saying stop, + 3 assistant calls).
    expect(server.requests).toHaveLength(70);
    const rows = (JSON.parse(live.stdout) as { rows: Row[] }).rows;
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      expect(row.conversation?.messages.map((m) => `${m.role}: ${m.content}`)).toEqual(EXPECTED);
      expect(row.conversation?.endedBy).toBe('stop');
      expect(row.conversation?.turns.flatMap((turn) => (turn.evals?.polite === undefined ? [] : [turn.evals.polite.passed]))).toEqual([true, true, true]);
      expect(row.simulator?.calls).toBe(4);
    }
    const replay = await runCli([...args, '--cache-only'], { cwd: dir, env: { ...env, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }, timeoutMs: 60_000 });
    expect(replay.code).toBe(0);
    expect(server.requests).toHaveLength(70);
    const replayed = (JSON.parse(replay.stdout) as { rows: Row[] }).rows;
    expect(replayed.map((row) => row.conversation?.messages)).toEqual(rows.map((row) => row.conversation?.messages));
  }, 120_000);

  it('kill -9 in the middle of a conversation, then --resume: no request already answered is sent again', async () => {
    const { dir, server, env } = await project(3);
    const args = ['run-experiment', 'prompts/support.prompt.mdx', '--concurrency', '1', '--format', 'jsonl', '--quiet'];
    let kill: () => void = () => {};
    // The 11th request is row 1's 4th (its second assistant turn): killed as it arrives, unanswered.
    server.setHandler((request) => {
      if (server.requests.length === 11) {
        kill();
        return { hang: true };
      }
      return responder(request);
    });
    const first = await runCli(args, { cwd: dir, env, timeoutMs: 60_000, onSpawn: (child) => (kill = () => child.kill('SIGKILL')) });
    expect(first.signal).toBe('SIGKILL');
    const answered = new Set(server.requests.filter((request) => request.status === 200).map((request) => JSON.stringify(request.body)));
    expect(answered.size).toBe(10);
    const before = server.requests.length;
    server.setHandler(responder);
    const [runId] = await runIds(dir);
    const resumed = await runCli([...args, '--resume', runId ?? ''], { cwd: dir, env, timeoutMs: 60_000 });
    expect(resumed.code).toBe(0);
    const sent = server.requests.slice(before).map((request) => JSON.stringify(request.body));
    expect(sent.filter((body) => answered.has(body))).toEqual([]);
    // Row 1's unanswered request and the rest of it (3 more), then row 2 whole (7).
    expect(sent).toHaveLength(11);
    const { rows } = await readResults(dir, runId ?? '');
    expect((rows as Row[]).map((row) => [row.index, row.conversation?.messages.length, row.conversation?.endedBy]).sort()).toEqual([[0, 6, 'stop'], [1, 6, 'stop'], [2, 6, 'stop']]);
  }, 120_000);
});
