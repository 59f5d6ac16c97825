/**
 * Each turn of a conversation is a model call like any other: through the run's retries, rate
 * limiter, per-call timeout and circuit breaker. The built CLI against the loopback server, with
 * scripted faults: the conversations come out whole (or, for a timeout, ended by `error` with the
 * turns before it kept), and a run the breaker stopped is finished by --resume without a
 * request already answered sent again.
 */
import { URL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIReply, type OpenAIRequestInfo, type OpenAIServer } from '../helpers/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { readResults, runIds } from '../faults/fault-project.js';
import { conversationProject, scripted, supportPrompt, type ConversationProject } from './cli-project.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Row {
  index: number;
  retries: number;
  error?: string | null;
  errorCode?: string | null;
  conversation: { messages: Array<{ role: string; content: string }>; endedBy: string };
}

interface Output {
  rows: Row[];
  summary: { rows: number; errored: number; rateLimit?: { refused: number; waitedMs: number } };
}

const WHOLE = ['user: I was charged twice', 'assistant: re: I was charged twice', 'user: Order 1234', 'assistant: re: Order 1234', 'user: Thank you', 'assistant: re: Thank you'];
const said = (row: Row): string[] => row.conversation.messages.map((message) => `${message.role}: ${message.content}`);

async function project(rows: number): Promise<ConversationProject> {
  const made = await conversationProject(rows, supportPrompt(6));
  cleanups.push(() => made.cleanup());
  return made;
}

async function run(made: ConversationProject, extra: string[]): Promise<Output & { code: number | null; stderr: string }> {
  const result = await made.cli(['run-experiment', 'prompts/support.prompt.mdx', '--format', 'json', '--quiet', '--no-cache', ...extra]);
  if (result.stdout === "") throw new Error(`no report: exit ${result.code}: ${result.stderr}`);
  return { ...(JSON.parse(result.stdout) as Output), code: result.code, stderr: result.stderr };
}

/** Answers each distinct request with `first` the first time it arrives, then as scripted. */
function onceThen(first: { status: number; retryAfterMs?: number }): (request: OpenAIRequestInfo) => OpenAIReply {
  const seen = new Set<string>();
  return (request) => {
    const key = JSON.stringify(request.body);
    if (seen.has(key)) return scripted(request);
    seen.add(key);
    return first;
  };
}

describe("a conversation's turns through the run's faults handling (CLI, loopback)", () => {
  it('retries: a 500 on every first attempt, simulator and assistant, is retried; the conversations come out whole; a row counts its assistant turns\' retries', async () => {
    const made = await project(2);
    made.server.setHandler(onceThen({ status: 500 }));
    const out = await run(made, ['--max-retries', '1']);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    // 2 rows × 7 calls (4 simulator, 3 assistant), each sent twice.
    expect(made.server.requests.map((request) => request.status).sort()).toEqual([...Array<number>(14).fill(200), ...Array<number>(14).fill(500)]);
    expect(out.rows.map((row) => [said(row), row.conversation.endedBy, row.retries, row.error ?? null])).toEqual([
      [WHOLE, 'stop', 3, null],
      [WHOLE, 'stop', 3, null],
    ]);
  }, 60_000);

  it('the rate limiter: a 429 on every first attempt waits out its retry-after and spends no retry (--max-retries 0); the summary counts every turn refused', async () => {
    const made = await project(2);
    made.server.setHandler(onceThen({ status: 429, retryAfterMs: 5 }));
    const out = await run(made, ['--max-retries', '0']);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(made.server.requests).toHaveLength(28);
    expect(out.rows.map((row) => [said(row), row.conversation.endedBy, row.retries])).toEqual([
      [WHOLE, 'stop', 0],
      [WHOLE, 'stop', 0],
    ]);
    expect(out.summary.rateLimit?.refused).toBe(14);
  }, 60_000);

  it('--timeout is per turn: an assistant turn that never answers ends its conversation with endedBy error (MODEL_TIMEOUT), the turns before it kept; the other row is whole', async () => {
    const made = await project(2);
    // Row 0's second assistant turn hangs; only the call's timeout ends it.
    made.server.setHandler((request) => (request.model !== 'sim-user' && request.messagesText.includes('You help C0') && request.lastUserText === 'Order 1234' ? { hang: true } : scripted(request)));
    const out = await run(made, ['--timeout', '1', '--max-retries', '0']);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(1);
    const [first, second] = out.rows;
    expect([first?.errorCode, first?.conversation.endedBy, first && said(first)]).toEqual(['MODEL_TIMEOUT', 'error', WHOLE.slice(0, 3)]);
    expect([second?.error ?? null, second?.conversation.endedBy, second && said(second)]).toEqual([null, 'stop', WHOLE]);
    expect(out.summary).toMatchObject({ rows: 2, errored: 1 });
  }, 60_000);

  it("a row's timeout_seconds covers the whole conversation: calls of 300 ms each, none near 1 s, run past a row's 1 s in all; the row without one is whole", async () => {
    const rows = [{ input: { customer: 'C0' }, scenario: { goal: 'refund 0' }, timeout_seconds: 1 }, { input: { customer: 'C1' }, scenario: { goal: 'refund 1' } }];
    const made = await conversationProject(2, supportPrompt(6), { 'prompts/talks.jsonl': `${rows.map((row) => JSON.stringify(row)).join('\n')}\n` });
    cleanups.push(() => made.cleanup());
    made.server.setHandler((request) => ({ ...scripted(request), latencyMs: 300 }));
    const out = await run(made, ['--max-retries', '0']);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(1);
    const [first, second] = out.rows;
    // 7 calls of 300 ms: the conversation's 1 s ends it part-way, the turns answered before kept.
    expect([first?.errorCode, first?.conversation.endedBy]).toEqual(['MODEL_TIMEOUT', 'error']);
    const kept = first === undefined ? [] : said(first);
    expect(kept.length).toBeLessThan(6);
    expect(kept).toEqual(WHOLE.slice(0, kept.length));
    expect([second?.error ?? null, second?.conversation.endedBy, second && said(second)]).toEqual([null, 'stop', WHOLE]);
  }, 60_000);

  it('the circuit breaker: the server dies mid-conversation, the run stops (exit 2) with no row recorded as errored; --resume finishes every conversation, no answered request sent again', async () => {
    const made = await conversationProject(3, supportPrompt(6));
    const { dir, server } = made;
    const port = Number(new URL(server.url).port);
    let revived: OpenAIServer | undefined;
    cleanups.push(async () => {
      await revived?.close();
      await made.cleanup();
    });
    // The server closes as row 1's third request (the 10th of the run) arrives, unanswered: mid-conversation.
    // (Answered in full before it: the client sends a conversation's next request only once it has the last answer.)
    let dying: () => void = () => {};
    const dead = new Promise<void>((resolve) => (dying = resolve));
    server.setHandler((request) => {
      if (server.requests.length === 10) {
        dying();
        return { hang: true };
      }
      return scripted(request);
    });
    const args = ['run-experiment', 'prompts/support.prompt.mdx', '--concurrency', '1', '--format', 'jsonl', '--quiet', '--timeout', '5'];
    const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test-conversation' };
    let closed = false;
    const first = await runCli(args, {
      cwd: dir,
      env,
      timeoutMs: 60_000,
      onSpawn: () => {
        void dead.then(async () => {
          await server.close();
          closed = true;
        });
      },
    });
    expect(closed).toBe(true);
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(new RegExp(`^error: the model server at ${server.url.replaceAll('.', '\\.')} is unreachable: connect ECONNREFUSED`));
    const [runId] = await runIds(dir);
    const id = runId ?? '';
    const stored = (await readResults(dir, id)).rows as unknown as Row[];
    // Row 0 finished before the server died; row 1, cut mid-conversation, is not recorded: it was not run.
    expect(stored.map((row) => [row.index, row.conversation.endedBy, row.error ?? null])).toEqual([[0, 'stop', null]]);
    const answered = new Set(server.requests.filter((request) => request.status === 200).map((request) => JSON.stringify(request.body)));
    expect(answered.size).toBe(9);

    revived = await startOpenAIServer({ handler: scripted, port });
    const resumed = await runCli([...args, '--resume', id], { cwd: dir, env, timeoutMs: 60_000 });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const sent = revived.requests.map((request) => JSON.stringify(request.body));
    expect(sent.filter((body) => answered.has(body))).toEqual([]);
    // Row 1's 5 calls not answered before, and row 2's 7.
    expect(sent).toHaveLength(12);
    const after = (await readResults(dir, id)).rows as unknown as Row[];
    expect(after.map((row) => [row.index, said(row), row.conversation.endedBy]).sort()).toEqual([0, 1, 2].map((index) => [index, WHOLE, 'stop']));
  }, 120_000);
});
