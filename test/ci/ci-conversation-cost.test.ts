/**
 * `agentmark ci --max-cost` counts what a conversation's simulated user costs, as the run's
 * cost and cost gates do: a simulator far dearer than the prompt under test stops the live
 * calls once it has spent the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIRequestInfo, type OpenAIServer } from '../helpers/openai-server.js';
import { ciRepo, type CiRepo } from './ci-repo.js';

/** The simulator (gpt-4o, $2.5 per million input tokens) asks twice then stops, 1,000 tokens a call: $0.0025; an answer (gpt-4o-mini) is 2 tokens: under $0.000001. */
function responder(request: OpenAIRequestInfo): { text: string; usage: { input: number; output: number } } {
  if (request.model === 'gpt-4o') {
    const said = request.messagesText.split('\n').filter((line) => line.startsWith('assistant:')).length;
    return { text: ['Where is my order?', 'Order 7'][said] ?? '###STOP###', usage: { input: 1000, output: 0 } };
  }
  return { text: `re: ${request.lastUserText}`, usage: { input: 1, output: 1 } };
}

let server: OpenAIServer;
let repo: CiRepo;

beforeAll(async () => {
  server = await startOpenAIServer({ handler: responder });
  repo = await ciRepo(server);
  // The branch: a conversation prompt added, the three word prompts removed (nothing else runs).
  repo.git('checkout', '-q', '-b', 'feature');
  for (const name of ['alpha', 'beta', 'gamma']) await repo.remove(`prompts/${name}.prompt.mdx`);
  await repo.write(
    'prompts/chat.prompt.mdx',
    '---\nname: chat\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/talks.jsonl\n  conversation:\n    simulator: ../simulators/customer.prompt.mdx\n---\n<System>You help {props.customer}.</System>\n',
  );
  await repo.write('simulators/customer.prompt.mdx', '---\nname: customer\ntext_config:\n  model_name: openai/gpt-4o\n---\n<System>You are a customer. Goal: {props.goal}</System>\n');
  await repo.write('datasets/talks.jsonl', `${[0, 1, 2].map((i) => JSON.stringify({ input: { customer: `C${i}` }, scenario: { goal: `find order ${i}` } })).join('\n')}\n`);
  repo.git('add', '-A');
  repo.git('commit', '-q', '-m', 'a conversation prompt');
}, 30_000);
afterAll(async () => {
  await server.close();
  await repo.cleanup();
});

describe('agentmark ci --max-cost on a conversation prompt', () => {
  it("counts the simulated user's cost: the first conversation ($0.0075 of simulator calls) reaches $0.001, the last is not run", async () => {
    const result = await repo.run(['--base', 'main', '--max-cost', '0.001', '--concurrency', '1', '--format', 'json']);
    expect(result.code).toBe(2);
    // 3 removed and the conversation, whose calls are only known by running it: not estimated, as an agent's are not.
    expect(result.stderr.split('\n')[0]).toBe('ci: 4 prompts; estimated live model calls: 0 (cached answers are free)');
    const report = JSON.parse(result.stdout) as { costLimit?: { maxUsd: number; spentUsd: number }; prompts: Array<{ path: string; verdict: string }> };
    // A conversation: 3 simulator calls (the last says stop) at $0.0025 and 2 answers at
    // $0.00000075. The limit is reached as row 0 ends; row 1, which the pool had already sent,
    // finishes (paid for), as in ci.test.ts; then no more.
    expect(report.costLimit?.spentUsd).toBeCloseTo(2 * (3 * 0.0025 + 2 * 0.00000075), 12);
    expect(report.prompts.find((prompt) => prompt.path === 'prompts/chat.prompt.mdx')?.verdict).toBe('unfinished');
    expect(server.requests).toHaveLength(2 * 5);
  }, 60_000);
});
