import { expect, test } from 'vitest';
import { guessProvider } from '../../src/model/guess-provider.js';

test('a bare model id whose name says its maker gets that provider', () => {
  expect(['gpt-4o', 'gpt-4o-mini', 'o3-mini', 'o1', 'chatgpt-4o-latest', 'text-embedding-3-small'].map(guessProvider)).toEqual(Array(6).fill('openai'));
  expect(guessProvider('claude-sonnet-4-5')).toBe('anthropic');
  expect(guessProvider('gemini-2.5-flash')).toBe('google');
  expect(guessProvider('mistral-large-latest')).toBe('mistral');
  expect(guessProvider('grok-4')).toBe('xai');
});

test('a name that does not say its maker gets none', () => {
  expect(['llama3', 'my-model', 'omni', 'o', 'qwen2.5'].map(guessProvider)).toEqual(Array(5).fill(undefined));
});
