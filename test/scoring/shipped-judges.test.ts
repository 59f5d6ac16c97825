import { describe, expect, it } from 'vitest';
import { loadPrompt } from '../../src/prompt/index.js';
import { shippedJudgePath, type ShippedJudge } from '../../src/scoring/judge/judge-prompt.js';

const judges: Array<[ShippedJudge, string[]]> = [
  ['factuality', ['INPUT', 'OUTPUT', 'EXPECTED', 'INSTR']],
  ['closed-qa', ['INPUT', 'OUTPUT', 'CRIT', 'INSTR']],
  ['g-eval', ['INPUT', 'OUTPUT', 'CRIT', 'STEP ONE', 'EXPECTED', 'INSTR']],
  ['answer-relevance', ['OUTPUT', 'INSTR']],
  ['context-faithfulness', ['INPUT', 'OUTPUT', 'CONTEXT', 'INSTR']],
  ['context-recall', ['INPUT', 'EXPECTED', 'CONTEXT', 'INSTR']],
  ['context-relevance', ['INPUT', 'CONTEXT', 'INSTR']],
];

describe('the judge prompts shipped for promptfoo and OpenAI Evals checks', () => {
  it.each(judges)('%s loads, and renders each prop it reads (no expression left as text)', async (name, pieces) => {
    const prompt = await loadPrompt(shippedJudgePath(name));
    expect(prompt.kind).toBe('object');
    const rendered = prompt.render({
      input: 'INPUT',
      output: 'OUTPUT',
      expectedOutput: 'EXPECTED',
      hasExpectedOutput: true,
      criteria: 'CRIT',
      instructions: 'INSTR',
      context: 'CONTEXT',
      steps: '1. STEP ONE',
      hasSteps: true,
    });
    expect(rendered.messages?.map((m) => m.role)).toEqual(['system', 'user']);
    const all = (rendered.messages ?? []).map((m) => String(m.content)).join('\n');
    for (const piece of pieces) expect(all).toContain(piece);
    expect(all).not.toContain('{props.');
  });
});
