import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentContext, AgentFunction } from '../../src/agent/index.js';
import type { RowResult } from '../../src/experiment/index.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { answer, text } from '../model/mock-model.js';
import { agentmarkJson, echoModel, fixture, wordsDataset, type Fixture } from '../experiment/setup.js';

type Content = Parameters<typeof answer>[0];

/** Answers with a call of `toolName` until the prompt carries a tool result, then with the result's text. */
function toolModel(toolName: string): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const results = options.prompt.filter((message) => message.role === 'tool');
      if (results.length === 0) {
        const user = options.prompt.find((message) => message.role === 'user');
        const word = user && Array.isArray(user.content) && user.content[0]?.type === 'text' ? user.content[0].text : '';
        const call: Content = [{ type: 'tool-call', toolCallId: `call-${toolName}-${word}`, toolName, input: JSON.stringify({ word }) }];
        return answer(call, 'tool-calls');
      }
      const last = results.at(-1)?.content.at(-1);
      const output = last?.type === 'tool-result' && last.output.type === 'json' ? JSON.stringify(last.output.value) : '';
      return answer(text(`answer ${output}`));
    },
  });
}

const lookup = tool({
  description: 'Looks a word up',
  inputSchema: jsonSchema<{ word: string }>({ type: 'object', properties: { word: { type: 'string' } }, required: ['word'] }),
  execute: async ({ word }) => ({ upper: word.toUpperCase() }),
});

/** Two model calls and one tool per row: generateText with the prompt's tools, two steps. */
const twoStep: AgentFunction = (ctx: AgentContext) =>
  generateText({ model: ctx.model, ...ctx.prompt.render(ctx.props), tools: ctx.tools, stopWhen: stepCountIs(2), abortSignal: ctx.signal });

const toolPrompt = [
  '---',
  'name: echo',
  'text_config:',
  '  model_name: mock/echo',
  '  tools: [lookup]',
  'test_settings:',
  '  dataset: ../datasets/words.jsonl',
  '  agent: twoStep',
  '  evals: [tool_calls, max_model_calls]',
  '---',
  '',
  '<User>{props.word}</User>',
  '',
].join('\n');

const scores = {
  tool_calls: { type: 'boolean', scorer: 'tool_calls', options: { expected: ['lookup'] } },
  max_model_calls: { type: 'boolean', scorer: 'max_model_calls', options: { max: 2 } },
};

let project: Fixture | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

async function rowsOf(outcome: { runDir: string }): Promise<RowResult[]> {
  const lines = (await readFile(join(outcome.runDir, 'results.jsonl'), 'utf8')).split('\n').filter((line) => line !== '');
  return lines.map((line) => JSON.parse(line) as RowResult).sort((a, b) => a.index - b.index);
}

describe('a config agent runs the rows', () => {
  it('records two model calls and their summed tokens per row, tool_calls passes, and --cache-only replays it with no call', async () => {
    const model = toolModel('lookup');
    project = await fixture({ 'agentmark.json': agentmarkJson({ scores }), 'prompts/echo.prompt.mdx': toolPrompt }, model);
    const config = { agents: { twoStep }, tools: { lookup }, prices: { 'mock/echo': { input: 1, output: 2 } } };
    const first = await project.run({}, config);
    expect(first.status).toBe('completed');
    expect(model.doGenerateCalls).toHaveLength(6);
    const rows = await rowsOf(first);
    expect(rows.map((row) => row.output)).toEqual(['answer {"upper":"ALPHA"}', 'answer {"upper":"BETA"}', 'answer {"upper":"GAMMA"}']);
    for (const row of rows) {
      expect(row.error).toBeUndefined();
      expect(row.usage).toEqual({ inputTokens: 20, outputTokens: 10, totalTokens: 30 });
      // (10 × 1 + 5 × 2) / 1e6 per call, two calls
      expect(row.costUsd).toBeCloseTo(4e-5, 12);
      expect(row.cached).toBe(false);
      expect(row.agent).toMatchObject({ name: 'twoStep', modelCalls: 2, steps: 2, toolCalls: 1 });
      expect(row.agent?.calls.map((call) => [call.model, call.attempts, call.cached, call.usage.totalTokens])).toEqual([
        ['mock/echo', 1, false, 15],
        ['mock/echo', 1, false, 15],
      ]);
      expect(row.toolCalls).toEqual([{ name: 'lookup', args: { word: row.input.word }, result: { upper: String(row.input.word).toUpperCase() } }]);
      expect(row.evals.tool_calls).toMatchObject({ passed: true, reason: 'called lookup' });
      expect(row.evals.max_model_calls).toMatchObject({ passed: true, reason: '2 model calls within max 2' });
    }
    expect(first.summary.usage.totalTokens).toBe(90);

    const offline = toolModel('lookup');
    const replayed = await project.run({ cacheMode: 'only' }, { ...config, providers: { mock: () => offline } });
    expect(offline.doGenerateCalls).toHaveLength(0);
    expect(replayed.status).toBe('completed');
    const again = await rowsOf(replayed);
    expect(again.map((row) => row.output)).toEqual(rows.map((row) => row.output));
    expect(again.map((row) => row.toolCalls)).toEqual(rows.map((row) => row.toolCalls));
    expect(again.map((row) => row.evals)).toEqual(rows.map((row) => row.evals));
    expect(again.map((row) => [row.cached, row.agent?.modelCalls, row.usage?.totalTokens])).toEqual([
      [true, 2, 30],
      [true, 2, 30],
      [true, 2, 30],
    ]);
    expect(replayed.summary.evals).toEqual(first.summary.evals);
  });
});

describe('warm-up with agents', () => {
  it('--warmup counts calls: a row whose first call was warm-up stays warm-up when its later calls are not', async () => {
    const model = toolModel('lookup');
    project = await fixture({ 'agentmark.json': agentmarkJson({ scores }), 'prompts/echo.prompt.mdx': toolPrompt }, model);
    // Two calls a row, one row at a time: --warmup 3 is row 0's two calls and row 1's first.
    const outcome = await project.run({ warmup: 3, concurrency: 1, cacheMode: 'off' }, { agents: { twoStep }, tools: { lookup } });
    expect((await rowsOf(outcome)).map((row) => [row.index, row.warmup ?? false])).toEqual([
      [0, true],
      [1, true],
      [2, false],
    ]);
  });
});

describe('agent failures', () => {
  const plainPrompt = (agent: string): string => toolPrompt.replace('  agent: twoStep', `  agent: ${agent}`).replace('  tools: [lookup]\n', '').replace('  evals: [tool_calls, max_model_calls]', '  evals: []');

  it('an agent that throws makes its row an error naming the agent; the run goes on', async () => {
    project = await fixture({ 'prompts/echo.prompt.mdx': plainPrompt('boom') });
    const boom: AgentFunction = (ctx) => {
      if (ctx.row.index === 1) throw new Error('no stock for beta');
      return `ok ${String(ctx.props.word)}`;
    };
    const outcome = await project.run({}, { agents: { boom } });
    expect(outcome.status).toBe('completed');
    const rows = await rowsOf(outcome);
    expect(rows.map((row) => [row.output, row.error, row.errorCode])).toEqual([
      ['ok alpha', undefined, undefined],
      [undefined, 'agent "boom" failed: no stock for beta', 'AGENT_FAILED'],
      ['ok gamma', undefined, undefined],
    ]);
    expect(outcome.summary.errored).toBe(1);
    // Its rows called no model through the context: said once for the run.
    expect(project.events.filter((event) => event.type === 'warning').map((event) => event.type === 'warning' && event.message)).toEqual([
      'agent "boom" made no model call through ctx.model or ctx.models (row 0): calls made around them are not cached, counted or priced',
    ]);
  });

  it('under --cache-only a call the cache cannot answer fails the row with the cache miss, through the agent', async () => {
    const model = toolModel('lookup');
    project = await fixture({ 'prompts/echo.prompt.mdx': plainPrompt('twoStep') }, model);
    const outcome = await project.run({ cacheMode: 'only' }, { agents: { twoStep } });
    const rows = await rowsOf(outcome);
    expect(rows.map((row) => [row.error, row.errorCode])).toEqual(
      Array.from({ length: 3 }, () => [
        'agent "twoStep" failed: mock/echo: no cached response for this agent call (--cache-only) (run once without --cache-only to record it; a changed prompt, setting, tool or repeat count changes the key)',
        'MODEL_CACHE_MISS',
      ]),
    );
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('an agent that ignores its signal past the row timeout is abandoned: the row timed out, the run goes on, one warning names it', async () => {
    project = await fixture({ 'prompts/echo.prompt.mdx': plainPrompt('stuck') });
    let aborted = 0;
    const stuck: AgentFunction = async (ctx) => {
      if (ctx.row.index !== 0) return generateText({ model: ctx.model, ...ctx.prompt.render(ctx.props), abortSignal: ctx.signal });
      ctx.signal.addEventListener('abort', () => (aborted += 1));
      return new Promise(() => {});
    };
    const outcome = await project.run({ timeoutMs: 200 }, { agents: { stuck } });
    expect(outcome.status).toBe('completed');
    const rows = await rowsOf(outcome);
    expect(rows.map((row) => [row.output, row.error, row.timedOut, row.errorCode])).toEqual([
      [undefined, 'agent "stuck" timed out after 0.2s', true, 'AGENT_TIMEOUT'],
      ['beta', undefined, undefined, undefined],
      ['gamma', undefined, undefined, undefined],
    ]);
    expect(aborted).toBe(1);
    expect(project.events.filter((event) => event.type === 'warning').map((event) => event.type === 'warning' && event.message)).toEqual([
      'agent "stuck" ignored its signal: row 0 was abandoned at its timeout of 0.2s, still running (pass ctx.signal as abortSignal to its calls)',
    ]);
  });

  it('an agent name the config does not define is a usage error naming the closest one, before any call', async () => {
    const model = toolModel('lookup');
    project = await fixture({ 'prompts/echo.prompt.mdx': plainPrompt('twoStpe') }, model);
    const error = await project.run({}, { agents: { twoStep, other: twoStep } }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'USAGE_UNKNOWN_AGENT',
      exitCode: 2,
      message: 'unknown agent "twoStpe" (defined: twoStep, other)',
      hint: 'did you mean "twoStep"?',
    });
    expect((error as { location?: { line?: number } }).location?.line).toBe(7);
    const flagged = await project.run({ agent: 'nope' }, { agents: { twoStep } }).catch((caught: unknown) => caught);
    expect(flagged).toMatchObject({ code: 'USAGE_UNKNOWN_AGENT', message: 'unknown agent "nope" (defined: twoStep)', hint: 'define it under `agents` in agentmark.config.ts' });
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});

describe('teams', () => {
  it('the tool calls of two sub-agents reach tool_calls in order, and usage sums over every call', async () => {
    const search = tool({
      description: 'Searches',
      inputSchema: jsonSchema<{ word: string }>({ type: 'object', properties: { word: { type: 'string' } }, required: ['word'] }),
      execute: async ({ word }) => ({ hits: word.length }),
    });
    const first = toolModel('lookup');
    const second = toolModel('search');
    const writer = [
      '---',
      'name: writer',
      'text_config:',
      '  model_name: other/writer',
      '  tools: [search]',
      '---',
      '',
      '<User>{props.word}</User>',
      '',
    ].join('\n');
    const team: AgentFunction = async (ctx) => {
      const researcher = await generateText({ model: ctx.model, ...ctx.prompt.render(ctx.props), tools: ctx.tools, stopWhen: stepCountIs(2) });
      const member = await ctx.loadPrompt('prompts/writer.prompt.mdx');
      const written = await generateText({
        model: ctx.models(member.modelName),
        ...member.render(ctx.props),
        tools: { search },
        stopWhen: stepCountIs(2),
      });
      return { output: `${researcher.text} / ${written.text}` };
    };
    project = await fixture(
      {
        'agentmark.json': agentmarkJson({ scores: { tool_calls: { type: 'boolean', scorer: 'tool_calls', options: { expected: ['lookup', 'search'], ordered: true, strict: true } } } }),
        'prompts/echo.prompt.mdx': toolPrompt.replace('agent: twoStep', 'agent: team').replace('  evals: [tool_calls, max_model_calls]', '  evals: [tool_calls]'),
        'prompts/writer.prompt.mdx': writer,
        'datasets/words.jsonl': wordsDataset(['alpha']),
      },
      first,
    );
    const outcome = await project.run({}, { agents: { team }, tools: { lookup }, providers: { mock: () => first, other: () => second } });
    const [row] = await rowsOf(outcome);
    expect(row?.output).toBe('answer {"upper":"ALPHA"} / answer {"hits":5}');
    // The writer's search ran outside ctx.tools: its result comes from the prompt sent back.
    expect(row?.toolCalls).toEqual([
      { name: 'lookup', args: { word: 'alpha' }, result: { upper: 'ALPHA' } },
      { name: 'search', args: { word: 'alpha' }, result: { hits: 5 } },
    ]);
    expect(row?.evals.tool_calls).toMatchObject({ passed: true, reason: 'called lookup, search' });
    expect(row?.agent).toMatchObject({ modelCalls: 4, steps: 4, toolCalls: 2 });
    expect(row?.agent?.calls.map((call) => call.model)).toEqual(['mock/echo', 'mock/echo', 'other/writer', 'other/writer']);
    expect(row?.usage).toEqual({ inputTokens: 40, outputTokens: 20, totalTokens: 60 });
    // other/writer has no price: the row's cost is unknown rather than too low.
    expect(row?.costUsd).toBeUndefined();
  });
});

describe('what an agent returns', () => {
  const plain = toolPrompt.replace('  tools: [lookup]\n', '').replace('  evals: [tool_calls, max_model_calls]', '  evals: [exact]');

  it('a streamText result is the row output; its stream is cached and replayed like a generate call', async () => {
    const streamed: AgentFunction = (ctx) => streamText({ model: ctx.model, ...ctx.prompt.render(ctx.props), abortSignal: ctx.signal });
    const model = toolModel('lookup');
    project = await fixture({ 'prompts/echo.prompt.mdx': plain.replace('agent: twoStep', 'agent: streamed') }, echoModel());
    const first = await project.run({}, { agents: { streamed } });
    const rows = await rowsOf(first);
    expect(rows.map((row) => [row.output, row.agent?.modelCalls, row.agent?.steps, row.evals.exact?.passed])).toEqual([
      ['alpha', 1, 1, true],
      ['beta', 1, 1, true],
      ['gamma', 1, 1, true],
    ]);
    const replayed = await project.run({ cacheMode: 'only' }, { agents: { streamed }, providers: { mock: () => model } });
    expect((await rowsOf(replayed)).map((row) => [row.output, row.cached])).toEqual([
      ['alpha', true],
      ['beta', true],
      ['gamma', true],
    ]);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('a plain string, a plain object and { output, toolCalls } are taken as they are', async () => {
    const shapes: AgentFunction = async (ctx) => {
      await generateText({ model: ctx.model, ...ctx.prompt.render(ctx.props) });
      if (ctx.row.index === 0) return 'alpha';
      if (ctx.row.index === 1) return { word: 'beta' };
      return { output: 'gamma', toolCalls: [{ name: 'mine', args: {} }] };
    };
    project = await fixture({ 'prompts/echo.prompt.mdx': plain.replace('agent: twoStep', 'agent: shapes') });
    const rows = await rowsOf(await project.run({}, { agents: { shapes } }));
    expect(rows.map((row) => [row.output, row.toolCalls])).toEqual([
      ['alpha', []],
      [{ word: 'beta' }, []],
      ['gamma', [{ name: 'mine', args: {} }]],
    ]);
    expect(rows.map((row) => row.agent?.steps)).toEqual([1, 1, 1]);
  });
});

describe('the wrapped model', () => {
  it("retries a call through ctx.model like a prompt's call, and records its attempts on the row", async () => {
    const { APICallError } = await import('ai');
    let calls = 0;
    const flaky = new MockLanguageModelV3({
      doGenerate: async () => {
        calls += 1;
        if (calls === 1) throw new APICallError({ message: 'overloaded', url: 'http://mock', requestBodyValues: {}, statusCode: 503, isRetryable: true });
        return answer(text('fine'));
      },
    });
    const once: AgentFunction = (ctx) => generateText({ model: ctx.model, ...ctx.prompt.render(ctx.props), abortSignal: ctx.signal });
    project = await fixture(
      {
        'prompts/echo.prompt.mdx': toolPrompt.replace('agent: twoStep', 'agent: once').replace('  tools: [lookup]\n', '').replace('  evals: [tool_calls, max_model_calls]', '  evals: []'),
        'datasets/words.jsonl': wordsDataset(['alpha']),
      },
      flaky,
    );
    const [row] = await rowsOf(await project.run({}, { agents: { once } }));
    expect(row?.output).toBe('fine');
    expect(row?.retries).toBe(1);
    expect(row?.agent?.calls.map((call) => [call.attempts, call.cached])).toEqual([[2, false]]);
    expect(calls).toBe(2);
  });
});
