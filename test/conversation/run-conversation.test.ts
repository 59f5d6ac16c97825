import { generateText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentContext } from '../../src/agent/index.js';
import type { RowResult } from '../../src/experiment/index.js';
import { MockLanguageModelV3 } from 'ai/test';
import { fixture, type Fixture } from '../experiment/setup.js';
import { conversationFiles, CUSTOMER_PROMPT, SCRIPT, scriptedModel, talks, textOf } from './setup.js';

let current: Fixture | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

const rowsOf = (fx: Fixture): RowResult[] =>
  fx.events.flatMap((event) => (event.type === 'row-end' ? [event.row] : [])).sort((a, b) => a.index - b.index || a.repeat - b.repeat);

const transcript = (row: RowResult | undefined): string[] => (row?.conversation?.turns ?? []).map((turn) => `${turn.role}: ${turn.content}`);

const THREE_TURNS = [
  'user: I want a refund',
  'assistant: re: I want a refund',
  'user: Order 42',
  'assistant: re: Order 42',
  'user: Thanks',
  'assistant: re: Thanks',
];

describe('conversations with a simulated user', () => {
  it('a three-line script gives three user and three assistant turns, ended by the stop text', async () => {
    const model = scriptedModel();
    current = await fixture(conversationFiles(), model);
    const outcome = await current.run();
    expect(outcome.summary).toMatchObject({ rows: 2, errored: 0 });
    const [row] = rowsOf(current);
    expect(transcript(row)).toEqual(THREE_TURNS);
    expect(row?.conversation?.endedBy).toBe('stop');
    expect(row?.output).toBe('re: Thanks');
    expect(row?.conversation?.turns.map((turn) => [turn.index, turn.simulated === true])).toEqual([[0, true], [1, false], [2, true], [3, false], [4, true], [5, false]]);
    // 2 rows × (4 simulator calls, the last one saying stop, + 3 assistant calls).
    expect(model.doGenerateCalls).toHaveLength(14);
  });

  it('the simulator sees its own messages, then the conversation with the roles swapped', async () => {
    const model = scriptedModel();
    current = await fixture(conversationFiles([], talks(1)), model);
    await current.run();
    const simulatorCalls = model.doGenerateCalls.filter((call) => textOf(call.prompt[0] as never).startsWith('You are the customer'));
    expect(simulatorCalls).toHaveLength(4);
    expect(simulatorCalls[2]?.prompt.map((message) => `${message.role}: ${textOf(message as never)}`)).toEqual([
      'system: You are the customer. Your goal: refund 0',
      'assistant: I want a refund',
      'user: re: I want a refund',
      'assistant: Order 42',
      'user: re: Order 42',
    ]);
    const assistantCalls = model.doGenerateCalls.filter((call) => !simulatorCalls.includes(call));
    expect(assistantCalls[1]?.prompt.map((message) => `${message.role}: ${textOf(message as never)}`)).toEqual([
      'system: You help customers of shop 0.',
      'user: I want a refund',
      'assistant: re: I want a refund',
      'user: Order 42',
    ]);
  });

  it('the simulator\'s props are the row\'s scenario: each key as props.<key>, the whole object as props.scenario', async () => {
    const model = scriptedModel();
    const files = conversationFiles(['    max_turns: 1'], talks(1, () => ({ scenario: { goal: 'refund 0', order: 42 } })));
    // With input_schema properties, props.scenario is read like any prop: declared (it is not the scenario's own key).
    files['prompts/customer.prompt.mdx'] = CUSTOMER_PROMPT.replace('    goal: { type: string }', '    goal: { type: string }\n    scenario: { type: object }').replace('Your goal: {props.goal}', 'Your goal: {props.goal}, order {props.scenario.order}');
    current = await fixture(files, model);
    await current.run();
    const systems = model.doGenerateCalls.map((call) => textOf(call.prompt[0] as never));
    expect(systems).toEqual(['You are the customer. Your goal: refund 0, order 42', 'You help customers of shop 0.']);
  });

  it('max_turns cuts the conversation: endedBy max_turns, no simulator call after the last answer', async () => {
    const model = scriptedModel();
    current = await fixture(conversationFiles(['    max_turns: 2'], talks(1)), model);
    await current.run();
    const [row] = rowsOf(current);
    expect(transcript(row)).toEqual(THREE_TURNS.slice(0, 4));
    expect(row?.conversation?.endedBy).toBe('max_turns');
    expect(row?.error).toBeUndefined();
    expect(model.doGenerateCalls).toHaveLength(4);
  });

  it('a simulator that never says stop ends at max_turns (6 by default), not an error', async () => {
    current = await fixture(conversationFiles([], talks(1)), scriptedModel(Array.from({ length: 20 }, (_, i) => `line ${i}`)));
    await current.run();
    const [row] = rowsOf(current);
    expect(row?.conversation?.turns.filter((turn) => turn.role === 'user')).toHaveLength(6);
    expect(row?.conversation?.endedBy).toBe('max_turns');
  });

  it('opener: assistant lets the system under test speak first', async () => {
    current = await fixture(conversationFiles(['    opener: assistant', '    max_turns: 1'], talks(1)), scriptedModel());
    await current.run();
    expect(transcript(rowsOf(current)[0])).toEqual(['assistant: Hello, how can I help?', 'user: I want a refund', 'assistant: re: I want a refund']);
  });

  it('a custom stop text ends it; the reply holding it is not a turn', async () => {
    current = await fixture(conversationFiles(['    stop: "Thanks"'], talks(1)), scriptedModel());
    await current.run();
    const [row] = rowsOf(current);
    expect(transcript(row)).toEqual(THREE_TURNS.slice(0, 4));
    expect(row?.conversation?.endedBy).toBe('stop');
  });

  it('--repeat repeats whole conversations, each with its own cached answers', async () => {
    const model = scriptedModel();
    current = await fixture(conversationFiles([], talks(1)), model);
    const outcome = await current.run({ repeat: 2 });
    expect(outcome.summary.rows).toBe(2);
    expect(rowsOf(current).map((row) => [row.repeat, row.conversation?.turns.length])).toEqual([[0, 6], [1, 6]]);
    expect(model.doGenerateCalls).toHaveLength(14);
  });

  it('the simulator\'s tokens are counted apart, and in the totals', async () => {
    current = await fixture(conversationFiles([], talks(1)), scriptedModel());
    const outcome = await current.run();
    const [row] = rowsOf(current);
    // 4 simulator answers of 7 + 3 tokens; 3 assistant answers of 10 + 5.
    expect(row?.simulator).toEqual({ calls: 4, usage: { inputTokens: 28, outputTokens: 12, totalTokens: 40 } });
    expect(row?.usage).toEqual({ inputTokens: 30, outputTokens: 15, totalTokens: 45 });
    expect(outcome.summary.simulator).toEqual({ calls: 4, usage: { inputTokens: 28, outputTokens: 12, totalTokens: 40 } });
    expect(outcome.summary.usage).toEqual({ inputTokens: 58, outputTokens: 27, totalTokens: 85 });
  });

  it('the simulator\'s cost is in the run\'s cost and its cost gate', async () => {
    // $1 a token (1,000,000 per million): 3 answers of 15 tokens ($45) and 4 simulator answers of 10 ($40).
    const price = { input: 1_000_000, output: 1_000_000 };
    current = await fixture(conversationFiles(['  cost_max_usd: 60'], talks(1)), scriptedModel());
    const outcome = await current.run({}, { prices: { 'mock/support': price, 'mock/customer': price } });
    expect(rowsOf(current)[0]?.costUsd).toBe(45);
    expect(outcome.summary.simulator?.costUsd).toBe(40);
    expect(outcome.summary.costUsd).toBe(85);
    expect(outcome.summary.gates.find((gate) => gate.name.startsWith('cost'))?.passed).toBe(false);
  });

  it('--cache-only replays every conversation with no call, turn for turn', async () => {
    const model = scriptedModel();
    current = await fixture(conversationFiles(), model);
    await current.run();
    const first = rowsOf(current).map((row) => row.conversation);
    current.events.length = 0;
    const calls = model.doGenerateCalls.length;
    const replay = await current.run({ cacheMode: 'only' });
    expect(model.doGenerateCalls).toHaveLength(calls);
    expect(replay.summary).toMatchObject({ rows: 2, errored: 0, cached: 2 });
    expect(rowsOf(current).map((row) => row.conversation?.messages)).toEqual(first.map((conversation) => conversation?.messages));
    expect(rowsOf(current).map((row) => row.simulator?.calls)).toEqual([4, 4]);
  });
});

describe('a row\'s timeout_seconds', () => {
  it('covers the whole conversation: a turn that never answers ends it with endedBy error, the turns before kept', async () => {
    const scripted = scriptedModel();
    let assistantCalls = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        const simulator = textOf(options.prompt[0] as never).startsWith('You are the customer');
        if (!simulator && ++assistantCalls === 2) {
          // Never answers: only the conversation's deadline (the row's timeout) ends the call.
          return new Promise((_, reject) => options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal?.reason), { once: true }));
        }
        return scripted.doGenerate(options);
      },
    });
    current = await fixture(conversationFiles([], talks(1, () => ({ timeout_seconds: 0.5 }))), model);
    await current.run({ maxRetries: 0 });
    const [row] = rowsOf(current);
    expect(row?.errorCode).toBe('MODEL_TIMEOUT');
    expect(row?.conversation?.endedBy).toBe('error');
    expect(transcript(row)).toEqual(THREE_TURNS.slice(0, 3));
  });
});

describe('static multi-turn rows and agents', () => {
  it('a row with messages and no simulator: the prompt answers the last user turn after the history', async () => {
    const model = scriptedModel();
    const rows = `${JSON.stringify({ input: { shop: 'A' }, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }, { role: 'user', content: 'where is my order?' }] })}\n`;
    const files = conversationFiles([], rows);
    files['prompts/echo.prompt.mdx'] = (files['prompts/echo.prompt.mdx'] ?? '').replace('  conversation:\n    simulator: ./customer.prompt.mdx\n', '');
    current = await fixture(files, model);
    await current.run();
    const [row] = rowsOf(current);
    expect(transcript(row)).toEqual(['user: hi', 'assistant: hello', 'user: where is my order?', 'assistant: re: where is my order?']);
    expect(row?.conversation?.turns.map((turn) => turn.given === true)).toEqual([true, true, true, false]);
    expect(row?.output).toBe('re: where is my order?');
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(model.doGenerateCalls[0]?.prompt.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
  });

  it('a simulated conversation starting from a row\'s messages: the given turns first (counted by max_turns, not judged by turn evals), then the simulator goes on', async () => {
    const model = scriptedModel();
    const rows = `${JSON.stringify({ input: { shop: 'A' }, scenario: { goal: 'refund' }, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] })}\n`;
    const files = conversationFiles(['    max_turns: 2'], rows);
    files['prompts/echo.prompt.mdx'] = (files['prompts/echo.prompt.mdx'] ?? '').replace('  conversation:', '  turn_evals: [polite]\n  conversation:');
    current = await fixture(files, model);
    await current.run();
    const [row] = rowsOf(current);
    // The simulator saw the given user turn as its own first line, so it says its second.
    expect(transcript(row)).toEqual(['user: hi', 'assistant: hello', 'user: Order 42', 'assistant: re: Order 42']);
    expect(row?.conversation?.turns.map((turn) => `${turn.given === true ? 'given' : turn.simulated === true ? 'simulated' : 'answered'} ${turn.evals?.polite?.passed ?? '-'}`)).toEqual(['given -', 'given -', 'simulated -', 'answered true']);
    expect(row?.conversation?.endedBy).toBe('max_turns');
    expect(row?.evals.polite).toEqual({ passed: true, score: 1, normalized: 1, reason: '1/1 turns passed' });
    // One simulator call and one answer: max_turns 2 was reached by the given user turn and one more.
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('an agent in code as the system under test: ctx.messages holds the conversation', async () => {
    const seen: number[] = [];
    current = await fixture(conversationFiles([], talks(1)), scriptedModel());
    const helper = (ctx: AgentContext): string => {
      seen.push(ctx.messages?.length ?? -1);
      return `agent: ${ctx.messages?.at(-1)?.content ?? ''}`;
    };
    await current.run({ agent: 'helper' }, { agents: { helper } });
    const [row] = rowsOf(current);
    expect(transcript(row)).toEqual(['user: I want a refund', 'assistant: agent: I want a refund', 'user: Order 42', 'assistant: agent: Order 42', 'user: Thanks', 'assistant: agent: Thanks']);
    expect(seen).toEqual([1, 3, 5]);
  });

  it("an agent's conversation is one agent row: model calls and steps summed over the turns, the peak heap growth the highest turn's, judged by max_model_calls and max_memory_mb", async () => {
    const kept: number[][] = [];
    // One ctx.model call a turn; the second turn holds 10,000,000 doubles (80 MB of heap) past its end.
    const chatty = async (ctx: AgentContext): Promise<string> => {
      if (ctx.messages?.length === 3) kept.push(Array.from({ length: 10_000_000 }, (_, i) => i + 0.5));
      const result = await generateText({ model: ctx.model, messages: ctx.messages ?? [], abortSignal: ctx.signal });
      return result.text;
    };
    const scores = { calls: { type: 'boolean', scorer: 'max_model_calls', options: { max: 2 } }, lean: { type: 'boolean', scorer: 'max_memory_mb', options: { max: 20 } } };
    const files = conversationFiles([], talks(1), scores);
    files['prompts/echo.prompt.mdx'] = (files['prompts/echo.prompt.mdx'] ?? '').replace('  conversation:', '  evals: [calls, lean]\n  conversation:');
    current = await fixture(files, scriptedModel());
    const outcome = await current.run({ agent: 'chatty', concurrency: 1 }, { agents: { chatty } });
    kept.length = 0;
    const [row] = rowsOf(current);
    expect(transcript(row)).toEqual(THREE_TURNS);
    expect([row?.agent?.modelCalls, row?.agent?.steps, row?.agent?.calls.length]).toEqual([3, 3, 3]);
    // Growth over the turn's start, which earlier garbage collected meanwhile can lower (31.95 MB once for 40 MB held): past 20 MB all the same.
    expect(row?.agent?.peakMemoryMb).toBeGreaterThan(40);
    expect(row?.evals.calls).toMatchObject({ passed: false });
    expect(row?.evals.lean).toMatchObject({ passed: false, reason: expect.stringMatching(/^peak heap growth [\d.]+ MB exceeds max 20 MB$/) });
    expect(outcome.summary.agentMemoryMb).toMatchObject({ rows: 1, max: row?.agent?.peakMemoryMb, approximate: false });
  });
});
