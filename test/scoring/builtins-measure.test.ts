import { describe, expect, it } from 'vitest';
import { levenshteinSimilarity } from '../../src/scoring/builtins/similarity.js';
import { firstNumber } from '../../src/scoring/builtins/numeric.js';
import { runEval } from '../../src/scoring/index.js';
import { builtin, params, run } from './fixtures.js';

describe('levenshtein', () => {
  it('computes 1 - d / maxLen', () => {
    // kitten → sitting: 3 edits over 7 characters → 1 - 3/7 = 0.571428…
    expect(levenshteinSimilarity('kitten', 'sitting')).toEqual({ similarity: 1 - 3 / 7, distance: 3 });
    expect(levenshteinSimilarity('', '')).toEqual({ similarity: 1, distance: 0 });
  });
  it('passes at the default threshold 0.8 and fails below it', async () => {
    // "colour" vs "color": 1 edit over 6 → 0.833
    expect(await run('levenshtein', {}, { output: 'colour', expectedOutput: 'color' })).toEqual({
      score: 1 - 1 / 6,
      passed: true,
      reason: 'similarity 0.833 >= threshold 0.8 (1 edit)',
    });
    expect(await run('levenshtein', {}, { output: 'sitting', expectedOutput: 'kitten' })).toEqual({
      score: 1 - 3 / 7,
      passed: false,
      reason: 'similarity 0.571 < threshold 0.8 (3 edits)',
    });
    expect((await run('levenshtein', { threshold: 0.5 }, { output: 'sitting', expectedOutput: 'kitten' })).passed).toBe(true);
  });
  it('agrees with the textbook distance on random strings (reference: the plain dynamic programme)', () => {
    const reference = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          const row = d[i] as number[];
          const above = d[i - 1] as number[];
          row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
        }
      }
      return (d[a.length] as number[])[b.length] as number;
    };
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const text = (): string => Array.from({ length: next() % 12 }, () => 'abc'[next() % 3]).join('');
    for (let k = 0; k < 300; k++) {
      const [a, b] = [text(), text()];
      expect(levenshteinSimilarity(a, b).distance).toBe(reference(a, b));
    }
  });
  it('is bounded: texts past 25 million length × length cells are an eval error, not a stalled thread', async () => {
    const result = await runEval(await builtin('levenshtein'), params({ output: 'a'.repeat(5001), expectedOutput: 'b'.repeat(5000) }));
    expect(result).toEqual({ error: 'levenshtein compares texts of up to 25,000,000 length × length; these are 5001 × 5000 characters' });
    expect(levenshteinSimilarity('a'.repeat(5000), 'a'.repeat(4999) + 'b').distance).toBe(1);
  });
  it('rejects a threshold above 1', async () => {
    await expect(builtin('levenshtein', { threshold: 80 })).rejects.toThrow(
      'eval "e": invalid options for built-in "levenshtein": /threshold must be <= 1',
    );
  });
});

describe('numeric', () => {
  it('parses the first number', () => {
    expect(firstNumber('The answer is -3.5e2 apples, not 4')).toBe(-350);
    expect(firstNumber('about .5')).toBe(0.5);
    expect(firstNumber('none')).toBeUndefined();
  });
  it('passes within tolerance and fails outside', async () => {
    expect(await run('numeric', {}, { output: 'It is 42.', expectedOutput: 42 })).toEqual({
      passed: true,
      score: 1,
      reason: 'output 42 is within 0 of expected 42',
    });
    expect(await run('numeric', {}, { output: '41', expectedOutput: '42' })).toEqual({
      passed: false,
      score: 0,
      reason: 'output 41 differs from expected 42 by 1 (tolerance 0)',
    });
    expect((await run('numeric', { tolerance: 1 }, { output: '41', expectedOutput: 42 })).passed).toBe(true);
    expect(await run('numeric', {}, { output: 'no idea', expectedOutput: 42 })).toEqual({ passed: false, score: 0, reason: 'no number found in output' });
  });
  it('errors when the expected output is not a number', async () => {
    await expect(run('numeric', {}, { output: '1', expectedOutput: 'many' })).rejects.toThrow('numeric: expected_output "many" is not a number');
  });
  it('rejects a negative tolerance', async () => {
    await expect(builtin('numeric', { tolerance: -1 })).rejects.toThrow('/tolerance must be >= 0');
  });
});

describe('tool_calls', () => {
  const calls = (...names: string[]) => names.map((name) => ({ name, args: {} }));
  it('passes when every expected tool is called', async () => {
    expect(await run('tool_calls', { expected: ['search', 'lookup'] }, { toolCalls: calls('lookup', 'search') })).toEqual({
      passed: true,
      score: 1,
      reason: 'called lookup, search',
    });
  });
  it('names missing, forbidden and extra tools', async () => {
    const result = await run(
      'tool_calls',
      { expected: ['search', 'lookup'], forbidden: ['delete'], strict: true },
      { toolCalls: calls('search', 'delete', 'weather') },
    );
    // checks: 2 expected + 1 forbidden + strict = 4; failed: lookup missing, delete called, extra → 1/4
    expect(result).toEqual({
      passed: false,
      score: 0.25,
      reason: 'called search, delete, weather; missing: lookup; forbidden called: delete; extra: weather',
    });
  });
  it('checks order when asked', async () => {
    const options = { expected: ['search', 'answer'], ordered: true };
    expect((await run('tool_calls', options, { toolCalls: calls('search', 'x', 'answer') })).passed).toBe(true);
    expect(await run('tool_calls', options, { toolCalls: calls('answer', 'search') })).toEqual({
      passed: false,
      score: 2 / 3,
      reason: 'called answer, search; out of order: expected search → answer, got answer → search',
    });
  });
  it('takes per-row overrides from metadata', async () => {
    const row = { toolCalls: calls('a'), metadata: { expected_tools: ['b'], forbidden_tools: ['a'] } };
    expect(await run('tool_calls', { expected: ['a'] }, row)).toEqual({
      passed: false,
      score: 0,
      reason: 'called a; missing: b; forbidden called: a',
    });
    expect(await run('tool_calls', {}, { toolCalls: [] })).toEqual({ passed: true, score: 1, reason: 'no tools called' });
    await expect(run('tool_calls', {}, { metadata: { expected_tools: 'a' } })).rejects.toThrow(
      'metadata.expected_tools must be an array of tool names',
    );
  });
  it('rejects bad options', async () => {
    await expect(builtin('tool_calls', { expected: 'search' })).rejects.toThrow('/expected must be array');
  });
});

describe('latency / tokens / cost', () => {
  it('latency passes within maxMs, fails above, and gives no verdict without live latency', async () => {
    expect(await run('latency', { maxMs: 1000 }, { latencyMs: 999.6 })).toEqual({ passed: true, score: 1, reason: 'latency 1000ms within max 1000ms' });
    expect(await run('latency', { maxMs: 1000 }, { latencyMs: 1500 })).toEqual({ passed: false, score: 0, reason: 'latency 1500ms exceeds max 1000ms' });
    expect(await run('latency', { maxMs: 1000 }, {})).toEqual({ skipped: true, reason: 'no live latency (cached)' });
    await expect(builtin('latency', {})).rejects.toThrow('must have required property \'maxMs\'');
  });
  it('tokens', async () => {
    const usage = { inputTokens: 100, outputTokens: 50, totalTokens: 150 };
    expect(await run('tokens', { max: 150 }, { usage })).toEqual({ passed: true, score: 1, reason: '150 tokens within max 150' });
    expect(await run('tokens', { max: 100 }, { usage })).toEqual({ passed: false, score: 0, reason: '150 tokens exceeds max 100' });
    expect(await run('tokens', { max: 100 }, {})).toEqual({ skipped: true, reason: 'no token usage recorded' });
    await expect(builtin('tokens', { max: 1.5 })).rejects.toThrow('/max must be integer');
  });
  it('cost', async () => {
    expect(await run('cost', { maxUsd: 0.01 }, { costUsd: 0.0025 })).toEqual({ passed: true, score: 1, reason: 'cost $0.0025 within max $0.01' });
    expect(await run('cost', { maxUsd: 0.001 }, { costUsd: 0.0025 })).toEqual({ passed: false, score: 0, reason: 'cost $0.0025 exceeds max $0.001' });
    expect(await run('cost', { maxUsd: 0.001 }, {})).toEqual({ skipped: true, reason: 'cost unknown (no price for this model)' });
    await expect(builtin('cost', { maxUsd: -1 })).rejects.toThrow('/maxUsd must be >= 0');
  });  it('max_steps and max_model_calls judge an agent row and give no verdict on a prompt row', async () => {
    const agent = { modelCalls: 3, steps: 2, toolCalls: 1, agentMs: 5 };
    expect(await run('max_steps', { max: 2 }, { agent })).toEqual({ passed: true, score: 1, reason: '2 steps within max 2' });
    expect(await run('max_steps', { max: 1 }, { agent })).toEqual({ passed: false, score: 0, reason: '2 steps exceeds max 1' });
    expect(await run('max_model_calls', { max: 3 }, { agent })).toEqual({ passed: true, score: 1, reason: '3 model calls within max 3' });
    expect(await run('max_model_calls', { max: 2 }, { agent })).toEqual({ passed: false, score: 0, reason: '3 model calls exceeds max 2' });
    expect(await run('max_model_calls', { max: 2 }, {})).toEqual({ skipped: true, reason: 'not run by an agent' });
    await expect(builtin('max_steps', {})).rejects.toThrow("must have required property 'max'");
  });
});
