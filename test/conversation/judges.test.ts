import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import type { RowResult } from '../../src/experiment/index.js';
import { answer, text } from '../model/mock-model.js';
import { fixture, type Fixture } from '../experiment/setup.js';
import { conversationFiles, scriptedModel, SUPPORT_PROMPT, talks, textOf } from './setup.js';

let current: Fixture | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

const rowsOf = (fx: Fixture): RowResult[] => fx.events.flatMap((event) => (event.type === 'row-end' ? [event.row] : []));

/** The scripted parties, and a judge that passes every conversation and says what it was shown. */
function withJudge(): { model: MockLanguageModelV3; asked: string[] } {
  const scripted = scriptedModel();
  const asked: string[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      const system = textOf(options.prompt[0] as never);
      if (!system.startsWith('You are a strict, impartial evaluator of conversations')) return scripted.doGenerate(options);
      asked.push(options.prompt.map((message) => textOf(message as never)).join('\n---\n'));
      return answer(text(JSON.stringify({ reasoning: 'fine', passed: true })));
    },
  });
  return { model, asked };
}

const SCORES = {
  goal: { type: 'boolean', scorer: 'goal_completed' },
  role: { type: 'boolean', scorer: 'role_adherence' },
  memory: { type: 'boolean', scorer: 'knowledge_retention' },
  relevant: { type: 'boolean', scorer: 'turn_relevancy' },
};

describe('conversation judges (goal_completed, role_adherence, knowledge_retention, turn_relevancy)', () => {
  it('each asks the judge with its shipped prompt, the transcript, and what it needs; the verdict follows the score schema', async () => {
    const { model, asked } = withJudge();
    const files = conversationFiles([], talks(1, () => ({ expected_output: 'a refund is issued' })), SCORES);
    files['prompts/echo.prompt.mdx'] = SUPPORT_PROMPT().replace('  conversation:', '  evals: [goal, role, memory]\n  turn_evals: [relevant]\n  conversation:');
    current = await fixture(files, model);
    const outcome = await current.run({ judgeModel: 'mock/judge' });
    const [row] = rowsOf(current);
    expect(row?.evals).toEqual({
      goal: { passed: true, score: 1, normalized: 1, reason: 'fine' },
      role: { passed: true, score: 1, normalized: 1, reason: 'fine' },
      memory: { passed: true, score: 1, normalized: 1, reason: 'fine' },
      relevant: { passed: true, score: 1, normalized: 1, reason: '3/3 turns passed' },
    });
    // 3 conversation judges + 3 assistant turns judged for relevancy.
    expect(asked).toHaveLength(6);
    expect(row?.judge?.calls).toBe(6);
    expect(outcome.summary.judge?.calls).toBe(6);
    const goal = asked.find((prompt) => prompt.includes('what the user came for')) ?? '';
    expect(goal).toContain('The user\'s scenario:\n{\n  "goal": "refund 0"\n}');
    expect(goal).toContain('Expected outcome:\na refund is issued');
    expect(goal).toContain('Conversation:\nuser: I want a refund\n\nassistant: re: I want a refund\n\nuser: Order 42');
    const role = asked.find((prompt) => prompt.includes('kept to its role')) ?? '';
    expect(role).toContain("The assistant's role (its system prompt):\nYou help customers of shop 0.");
    const relevancy = asked.filter((prompt) => prompt.includes('Judge only the last assistant reply'));
    expect(relevancy.map((prompt) => prompt.slice(prompt.indexOf('The assistant reply to judge:')))).toEqual(
      ['re: I want a refund', 're: Order 42', 're: Thanks'].map((reply) => `The assistant reply to judge:\n${reply}`),
    );
  });

  it('a numeric score schema: the judge is asked for a bounded score, and the verdict comes from the threshold, as llm_judge does', async () => {
    const scripted = scriptedModel();
    const formats: unknown[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        if (!textOf(options.prompt[0] as never).startsWith('You are a strict, impartial evaluator of conversations')) return scripted.doGenerate(options);
        formats.push(options.responseFormat);
        return answer(text(JSON.stringify({ reasoning: 'mostly', score: 4 })));
      },
    });
    const files = conversationFiles([], talks(1), { memory: { type: 'numeric', min: 1, max: 5, scorer: 'knowledge_retention', options: { threshold: 4 } } });
    files['prompts/echo.prompt.mdx'] = SUPPORT_PROMPT().replace('  conversation:', '  evals: [memory]\n  conversation:');
    current = await fixture(files, model);
    await current.run({ judgeModel: 'mock/judge' });
    expect(rowsOf(current)[0]?.evals.memory).toEqual({ score: 4, normalized: 0.75, passed: true, reason: 'mostly' });
    expect(formats).toHaveLength(1);
    expect((formats[0] as { schema: { properties: Record<string, unknown> } }).schema.properties['score']).toEqual({ type: 'number', minimum: 1, maximum: 5 });
  });

  it('on a row that is not a conversation: no verdict, no judge call', async () => {
    const { model, asked } = withJudge();
    current = await fixture({ 'agentmark.json': conversationFiles([], talks(1), SCORES)['agentmark.json'] ?? '', 'prompts/echo.prompt.mdx': '---\nname: echo\ntext_config:\n  model_name: mock/echo\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [goal]\n---\n\n<User>{props.word}</User>\n' }, model);
    await current.run({ judgeModel: 'mock/judge' });
    expect(rowsOf(current).map((row) => row.evals.goal)).toEqual([1, 2, 3].map(() => ({ skipped: true, reason: 'not a conversation' })));
    expect(asked).toEqual([]);
  });
});
