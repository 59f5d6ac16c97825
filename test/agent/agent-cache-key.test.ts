import { describe, expect, it } from 'vitest';
import { agentCacheKey } from '../../src/agent/agent-cache-key.js';
import type { LanguageModelV3CallOptions } from '../../src/agent/model-types.js';

const params: LanguageModelV3CallOptions = {
  prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  temperature: 0,
};

describe('agentCacheKey', () => {
  it('separates everything in the call that decides the answer, and ignores what does not (the signal, headers)', () => {
    const key = agentCacheKey('openai/gpt-4o-mini', params, 0);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(agentCacheKey('openai/gpt-4o-mini', { ...params, abortSignal: new AbortController().signal, headers: { 'x-trace': '1' } }, 0)).toBe(key);
    const tools: LanguageModelV3CallOptions['tools'] = [{ type: 'function', name: 'weather', inputSchema: { type: 'object' } }];
    const different: Array<[string, string]> = [
      ['model', agentCacheKey('openai/gpt-4o', params, 0)],
      ['repeat', agentCacheKey('openai/gpt-4o-mini', params, 1)],
      ['prompt', agentCacheKey('openai/gpt-4o-mini', { ...params, prompt: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] }, 0)],
      ['temperature', agentCacheKey('openai/gpt-4o-mini', { ...params, temperature: 0.5 }, 0)],
      ['tools', agentCacheKey('openai/gpt-4o-mini', { ...params, tools }, 0)],
      ['toolChoice', agentCacheKey('openai/gpt-4o-mini', { ...params, tools, toolChoice: { type: 'required' } }, 0)],
      ['responseFormat', agentCacheKey('openai/gpt-4o-mini', { ...params, responseFormat: { type: 'json', schema: { type: 'object' } } }, 0)],
      ['providerOptions', agentCacheKey('openai/gpt-4o-mini', { ...params, providerOptions: { openai: { store: false } } }, 0)],
    ];
    for (const [what, other] of different) expect(other, what).not.toBe(key);
    // tools alone and tools with a tool choice are two requests too
    expect(different[5]?.[1]).not.toBe(different[4]?.[1]);
  });
});
