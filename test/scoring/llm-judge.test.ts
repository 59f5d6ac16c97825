import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelRequest, ModelResponse } from '../../src/model/types.js';
import { loadPrompt } from '../../src/prompt/index.js';
import type { ScoreSchema } from '../../src/project/types.js';
import { shippedJudgePath } from '../../src/scoring/judge/judge-prompt.js';
import { runEval } from '../../src/scoring/index.js';
import { builtin, params } from './fixtures.js';

/** A fake judge at the model boundary: answers in turn, recording each request. */
function fakeJudge(...answers: unknown[]) {
  const requests: ModelRequest[] = [];
  const judge = async (request: ModelRequest): Promise<ModelResponse> => {
    requests.push(request);
    const output = answers[Math.min(requests.length - 1, answers.length - 1)];
    return {
      output: output as ModelResponse['output'],
      toolCalls: [],
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      finishReason: 'stop',
      latencyMs: 1,
      costUsd: undefined,
      cached: false,
      retries: 0,
    };
  };
  return { judge, requests };
}

const row = params({ input: { question: 'Capital of France?' }, output: 'Paris', expectedOutput: 'Paris' });

function text(request: ModelRequest | undefined): string {
  return (request?.messages ?? []).map((m) => `${m.role}: ${typeof m.content === 'string' ? m.content : '[parts]'}`).join('\n');
}

describe('shipped judge prompts', () => {
  it('load with the prompt loader and render every prop', async () => {
    for (const name of ['llm-judge', 'accuracy'] as const) {
      const prompt = await loadPrompt(shippedJudgePath(name));
      expect(prompt.kind).toBe('object');
      const rendered = prompt.render({
        input: '{"q":1}',
        output: 'OUT',
        expectedOutput: 'EXP',
        hasExpectedOutput: true,
        criteria: 'CRIT',
        instructions: 'INSTR',
      });
      expect(rendered.messages?.map((m) => m.role)).toEqual(['system', 'user']);
      const all = rendered.messages?.map((m) => m.content)?.join('\n');
      for (const piece of ['{"q":1}', 'OUT', 'EXP', 'CRIT', 'INSTR']) expect(all).toContain(piece);
      const without = prompt.render({ input: '{}', output: 'OUT', expectedOutput: '', hasExpectedOutput: false, criteria: 'C', instructions: 'I' });
      expect(without.messages?.map((m) => m.content)?.join('\n')).not.toContain('Reference (expected) output');
    }
  });
});

describe('llm_judge', () => {
  it('boolean schema: asks for { reasoning, passed } at temperature 0', async () => {
    const { judge, requests } = fakeJudge({ reasoning: 'It is Paris.', passed: true });
    const bound = await builtin('llm_judge', {}, { judge, schema: { type: 'boolean', description: 'Answers correctly' } });
    expect(await runEval(bound, row)).toEqual({ passed: true, score: 1, normalized: 1, reason: 'It is Paris.' });
    const request = requests[0];
    expect(request).toMatchObject({ modelName: 'openai/gpt-4o-mini', kind: 'object', settings: { temperature: 0 } });
    expect(request?.schema).toEqual({
      type: 'object',
      properties: { reasoning: expect.any(Object) as unknown, passed: { type: 'boolean' } },
      required: ['reasoning', 'passed'],
      additionalProperties: false,
    });
    expect(Object.keys((request?.schema?.['properties'] ?? {}) as object)).toEqual(['reasoning', 'passed']);
    expect(text(request)).toContain('Answers correctly');
    expect(text(request)).toContain('Capital of France?');
    expect(text(request)).toContain('Reference (expected) output:\nParis');
  });

  it('numeric schema: a bounded score, with a verdict only when a threshold is set', async () => {
    const schema: Omit<ScoreSchema, 'scorer' | 'options'> = { type: 'numeric', min: 1, max: 5, description: 'Helpfulness' };
    const { judge, requests } = fakeJudge({ reasoning: 'good', score: 4 });
    const bound = await builtin('llm_judge', { threshold: 4, model: 'openai/gpt-4o' }, { judge, schema, judgeModel: 'openai/other' });
    expect(await runEval(bound, row)).toEqual({ score: 4, normalized: 0.75, passed: true, reason: 'good' });
    expect(requests[0]?.modelName).toBe('openai/gpt-4o');
    expect((requests[0]?.schema?.['properties'] as Record<string, unknown>)['score']).toEqual({ type: 'number', minimum: 1, maximum: 5 });
  });

  it('categorical schema: a label from the categories; uses the run judge model', async () => {
    const categories = [{ label: 'formal', value: 1 }, { label: 'casual', value: 0 }];
    const { judge, requests } = fakeJudge({ reasoning: 'slang', label: 'casual' });
    const bound = await builtin('llm_judge', { criteria: 'Tone' }, { judge, judgeModel: 'openai/judge', schema: { type: 'categorical', categories } });
    expect(await runEval(bound, row)).toEqual({ label: 'casual', score: 0, normalized: 0, reason: 'slang' });
    expect(requests[0]?.modelName).toBe('openai/judge');
    expect((requests[0]?.schema?.['properties'] as Record<string, unknown>)['label']).toEqual({ type: 'string', enum: ['formal', 'casual'] });
    expect(text(requests[0])).toContain('Give "label", exactly one of: formal, casual.');
  });

  it('categorical schema with a threshold: passed when the label\'s value reaches it (OpenAI label_model passing_labels)', async () => {
    const categories = [{ label: 'correct', value: 1 }, { label: 'incorrect', value: 0 }];
    const schema: ScoreSchema = { type: 'categorical', categories };
    const pass = fakeJudge({ reasoning: 'right', label: 'correct' });
    expect(await runEval(await builtin('llm_judge', { criteria: 'C', threshold: 1 }, { judge: pass.judge, schema }), row)).toEqual({ label: 'correct', score: 1, normalized: 1, passed: true, reason: 'right' });
    const fail = fakeJudge({ reasoning: 'wrong', label: 'incorrect' });
    expect(await runEval(await builtin('llm_judge', { criteria: 'C', threshold: 1 }, { judge: fail.judge, schema }), row)).toEqual({ label: 'incorrect', score: 0, normalized: 0, passed: false, reason: 'wrong' });
  });

  it('retries a malformed answer once with the problem, then succeeds', async () => {
    const { judge, requests } = fakeJudge({ reasoning: 'x', passed: 'yes' }, { reasoning: 'fixed', passed: false });
    const bound = await builtin('llm_judge', { criteria: 'C' }, { judge });
    expect(await runEval(bound, row)).toEqual({ passed: false, score: 0, normalized: 0, reason: 'fixed' });
    expect(requests).toHaveLength(2);
    expect(requests[1]?.messages.at(-1)).toEqual({
      role: 'user',
      content: 'Your previous answer did not match the required JSON schema (/passed must be boolean). Answer again with only the required fields.',
    });
  });

  it('errors after a second malformed answer', async () => {
    const { judge, requests } = fakeJudge({ reasoning: 'x' });
    const bound = await builtin('llm_judge', { criteria: 'C' }, { judge });
    expect(await runEval(bound, row)).toEqual({
      error: "judge answer did not match the schema after a retry: (root) must have required property 'passed'",
    });
    expect(requests).toHaveLength(2);
  });

  it('accepts a JSON text answer and rejects non-JSON text', async () => {
    const ok = fakeJudge('{"reasoning":"r","passed":true}');
    expect(await runEval(await builtin('llm_judge', { criteria: 'C' }, { judge: ok.judge }), row)).toMatchObject({ passed: true });
    const bad = fakeJudge('PASS');
    expect(await runEval(await builtin('llm_judge', { criteria: 'C' }, { judge: bad.judge }), row)).toEqual({
      error: 'judge answer did not match the schema after a retry: the answer is not JSON',
    });
  });

  it('binding errors: no criteria, no judge, bad options, missing prompt file', async () => {
    const { judge } = fakeJudge({});
    await expect(builtin('llm_judge', {}, { judge })).rejects.toThrow('eval "e": llm_judge has no criteria');
    await expect(builtin('llm_judge', { criteria: 'C' })).rejects.toMatchObject({
      code: 'EVAL_NO_JUDGE',
      message: 'eval "e" needs an LLM judge, but none is available here',
    });
    await expect(builtin('llm_judge', { criteria: 'C', model: 'gpt-4o' }, { judge })).rejects.toThrow(
      'eval "e": invalid options for built-in "llm_judge": /model must match pattern "^[^/]+/.+$"',
    );
    await expect(builtin('llm_judge', { criteria: 'C', prompt: 'judges/missing.prompt.mdx' }, { judge })).rejects.toMatchObject({
      code: 'EVAL_JUDGE_PROMPT',
    });
  });

  it("renders the user's own judge prompt, resolved against the project root, with its model", async () => {
    const root = await mkdtemp(join(tmpdir(), 'judge-'));
    await writeFile(
      join(root, 'my-judge.prompt.mdx'),
      [
        '---',
        'name: my-judge',
        'object_config:',
        '  model_name: openai/my-model',
        '  schema:',
        '    type: object',
        '---',
        '',
        '<User>',
        'Does {props.output} answer {props.item.question} with {props.criteria}? {props.instructions}',
        '</User>',
        '',
      ].join('\n'),
    );
    const { judge, requests } = fakeJudge({ reasoning: 'yes', passed: true });
    const bound = await builtin('llm_judge', { criteria: 'brevity', prompt: 'my-judge.prompt.mdx' }, { judge, projectRoot: root });
    expect(await runEval(bound, row)).toMatchObject({ passed: true });
    expect(requests[0]?.modelName).toBe('openai/my-model');
    expect(requests[0]?.messages).toEqual([
      { role: 'user', content: 'Does Paris answer Capital of France? with brevity? Give "passed": true when the output meets the criteria, false when it does not.' },
    ]);
  });
});

describe('accuracy', () => {
  it('asks for an integer 1..10 and passes at 7 by default', async () => {
    const { judge, requests } = fakeJudge({ reasoning: 'mostly right', score: 7 });
    const bound = await builtin('accuracy', {}, { judge, schema: { type: 'numeric', min: 1, max: 10 } });
    expect(await runEval(bound, row)).toEqual({ score: 7, passed: true, normalized: 6 / 9, reason: 'mostly right' });
    expect((requests[0]?.schema?.['properties'] as Record<string, unknown>)['score']).toEqual({ type: 'integer', minimum: 1, maximum: 10 });
    expect(text(requests[0])).toContain('How accurately and completely');
  });
  it('fails below its threshold', async () => {
    const { judge } = fakeJudge({ reasoning: 'partly', score: 7 });
    const bound = await builtin('accuracy', { threshold: 8 }, { judge, schema: { type: 'boolean' } });
    expect(await runEval(bound, row)).toEqual({ score: 7, passed: false, normalized: 0, reason: 'partly' });
  });
  it('an out-of-range score is retried, then an error', async () => {
    const { judge } = fakeJudge({ reasoning: 'r', score: 11 });
    const bound = await builtin('accuracy', {}, { judge });
    expect(await runEval(bound, row)).toEqual({ error: 'judge answer did not match the schema after a retry: /score must be <= 10' });
  });
  it('rejects a threshold outside 1..10', async () => {
    const { judge } = fakeJudge({});
    await expect(builtin('accuracy', { threshold: 0 }, { judge })).rejects.toThrow('/threshold must be >= 1');
  });
});
