import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentContext, AgentFunction } from '../../src/agent/index.js';
import type { RowResult } from '../../src/experiment/index.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { answer, text } from '../model/mock-model.js';
import { agentmarkJson, fixture, wordsDataset, type Fixture } from '../experiment/setup.js';

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
