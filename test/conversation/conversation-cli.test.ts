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

/** The simulated user's three-line script, as its prompt file says it (numbered lines of its system message). */
const SCRIPT = ['I was charged twice', 'Order 1234', 'Thank you'];
const CUSTOMER_PROMPT = [
  '---',
  'name: customer',
  'text_config:',
  '  model_name: openai/sim-user',
  '---',
  '<System>',
  'You are a customer ({props.goal}). Say these lines, one a turn, in order; after the last one say ###STOP###.',
  '',
  ...SCRIPT.map((line, i) => `${i + 1}. ${line}`),
  '</System>',
  '',
].join('\n');

/**
 * The loopback model. The simulator (model sim-user) follows the script its prompt sends: the
 * numbered line after its own earlier turns, then the stop text. The assistant answers
 * `re: <last user turn>`.
 */
function responder(request: OpenAIRequestInfo): { text: string } {
  if (request.model === 'sim-user') {
    const lines = request.messagesText.split('\n');
    const script = lines.flatMap((line) => /^\d+\. (.+)$/.exec(line)?.slice(1) ?? []);
    const said = lines.filter((line) => line.startsWith('assistant:')).length;
    return { text: script[said] ?? '###STOP###' };
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
    'prompts/customer.prompt.mdx': CUSTOMER_PROMPT,
    'prompts/talks.jsonl': `${dataset}\n`,
  });
  const server = await startOpenAIServer({ handler: responder });
  cleanups.push(made.cleanup, () => server.close());
  return { dir: made.dir, server, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY } };
}

interface Turn {
  index: number;
  role: string;
  content: string;
  simulated?: boolean;
  cached?: boolean;
  evals?: Record<string, { passed: boolean | null; reason: string | null }>;
}

interface Row {
  index: number;
  cached: boolean;
  evals: Record<string, { passed: boolean | null; reason: string | null }>;
  conversation?: { messages: Array<{ role: string; content: string }>; turns: Turn[]; endedBy: string };
  simulator?: { calls: number };
}

const EXPECTED = ['user: I was charged twice', 'assistant: re: I was charged twice', 'user: Order 1234', 'assistant: re: Order 1234', 'user: Thank you', 'assistant: re: Thank you'];

/** What a transcript is, whatever answered it: its messages, turns (with their verdicts) and end. */
const transcript = (row: Row): unknown => ({
  messages: row.conversation?.messages,
  turns: row.conversation?.turns.map(({ index, role, content, simulated, evals }) => ({ index, role, content, simulated, evals })),
  endedBy: row.conversation?.endedBy,
});

describe('conversations through the CLI', () => {
  it('done when: a three-line simulated-user script, 10 rows: each 3 user + 3 assistant turns ended by the stop text, 3 turn-eval results; --cache-only sends no request and gives the same transcripts', async () => {
    const { dir, server, env } = await project(10);
    const args = ['run-experiment', 'prompts/support.prompt.mdx', '--format', 'json', '--quiet'];
    const live = await runCli(args, { cwd: dir, env, timeoutMs: 60_000 });
    expect(live.stderr).toBe('');
    expect(live.code).toBe(0);
    // 10 × (4 simulator calls, the last saying stop, + 3 assistant calls).
    expect(server.requests).toHaveLength(70);
    // The script came from the simulator's prompt file: every simulator request carried it.
    const simulatorRequests = server.requests.filter((request) => request.body.model === 'sim-user');
    expect(simulatorRequests).toHaveLength(40);
    for (const request of simulatorRequests) expect(JSON.stringify(request.body)).toContain('1. I was charged twice\\n2. Order 1234\\n3. Thank you');
    const rows = (JSON.parse(live.stdout) as { rows: Row[] }).rows;
    expect(rows.map((row) => row.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const row of rows) {
      expect(row.conversation?.messages.map((m) => `${m.role}: ${m.content}`)).toEqual(EXPECTED);
      const turns = row.conversation?.turns ?? [];
      expect(turns.map((turn) => `${turn.index} ${turn.role}${turn.simulated === true ? ' simulated' : ''}`)).toEqual([
        '0 user simulated',
        '1 assistant',
        '2 user simulated',
        '3 assistant',
        '4 user simulated',
        '5 assistant',
      ]);
      expect(row.conversation?.endedBy).toBe('stop');
      // Three turn-eval results, one on each assistant turn, none on the user's.
      expect(turns.map((turn) => turn.evals?.polite?.passed ?? null)).toEqual([null, true, null, true, null, true]);
      expect(row.evals.polite).toMatchObject({ passed: true, reason: '3/3 turns passed' });
      expect(row.evals.ended).toMatchObject({ passed: true, reason: 'ended by the stop text' });
      expect(row.simulator?.calls).toBe(4);
      expect(row.cached).toBe(false);
    }

    // The same server, the same base URL: any request the replay sent would be counted here.
    const replay = await runCli([...args, '--cache-only'], { cwd: dir, env, timeoutMs: 60_000 });
    expect(replay.stderr).toBe('');
    expect(replay.code).toBe(0);
    expect(server.requests).toHaveLength(70);
    const replayed = (JSON.parse(replay.stdout) as { rows: Row[] }).rows;
    expect(replayed.map(transcript)).toEqual(rows.map(transcript));
    expect(replayed.map((row) => [row.cached, row.conversation?.turns.every((turn) => turn.cached === true)])).toEqual(rows.map(() => [true, true]));
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
    expect((rows as unknown as Row[]).map((row) => [row.index, row.conversation?.messages.length, row.conversation?.endedBy]).sort()).toEqual([[0, 6, 'stop'], [1, 6, 'stop'], [2, 6, 'stop']]);
  }, 120_000);
});
