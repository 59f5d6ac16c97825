import { createHash } from 'node:crypto';
import type { Tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/canonical-json.js';
import { CACHE_KEY_VERSION, cacheKey } from '../../src/model/cache-key.js';
import type { ModelRequest } from '../../src/model/types.js';

/** The key's definition: sha256 of the canonical JSON of the whole payload, built as an object. */
function reference(request: ModelRequest, repeat: number, tools: Record<string, Tool> = {}): string {
  const slash = request.modelName.indexOf('/');
  const payload = {
    version: CACHE_KEY_VERSION,
    provider: slash === -1 ? '' : request.modelName.slice(0, slash),
    model: slash === -1 ? request.modelName : request.modelName.slice(slash + 1),
    kind: request.kind,
    messages: request.messages,
    settings: request.settings,
    tools: request.tools?.map((name) => {
      const tool = tools[name] as { description?: string; inputSchema?: { jsonSchema?: unknown } } | undefined;
      return { name, ...(tool?.description === undefined ? {} : { description: tool.description }), ...(tool?.inputSchema?.jsonSchema === undefined ? {} : { inputSchema: tool.inputSchema.jsonSchema }) };
    }),
    toolChoice: request.toolChoice,
    maxCalls: request.maxCalls,
    schema: request.schema,
    schemaName: request.schemaName,
    schemaDescription: request.schemaDescription,
    repeat,
  };
  return createHash('sha256').update(canonicalJson(payload)).digest('hex');
}

const bench: ModelRequest = {
  modelName: 'openai/bench-model',
  kind: 'text',
  messages: [
    { role: 'system', content: 'Answer with "answer" followed by the number in the question.' },
    { role: 'user', content: 'question 7' },
  ],
  settings: { temperature: 0, maxOutputTokens: 8 },
};

const objectRequest = {
  modelName: 'gpt-4o',
  kind: 'object',
  messages: [{ content: [{ type: 'text', text: 'hi' }, { type: 'image', image: 'data:x', mimeType: 'image/png' }], role: 'user' }],
  settings: {},
  schema: { type: 'object', properties: { b: { type: 'string' }, a: { type: 'number' } } },
  schemaName: 'S',
  tools: ['t'],
  toolChoice: { type: 'tool', tool_name: 't' },
  maxCalls: 3,
} as ModelRequest;
const objectTools = { t: { description: 'd', inputSchema: { jsonSchema: { type: 'object' } } } as unknown as Tool };

describe('cacheKey', () => {
  it('keeps the keys existing caches hold (values from the build before the key was written field by field)', () => {
    expect(cacheKey(bench, 0)).toBe('25a27e4a7da1bf3b1c6aff8f5ed49fab0052e5374440e138e51f23a4e68c4565');
    expect(cacheKey(bench, 2)).toBe('b89c62b7f2ed26e2e9eaa7f2b3631a53c2ea7693568c457f04a43dad58f39a6e');
    expect(cacheKey(objectRequest, 1, objectTools)).toBe('1ed85f01f3083934a4875c397f54605f25dadf550918a1f3cf4b34b4e3531dfb');
  });

  it.each([
    ['a plain text prompt', bench, 0],
    ['an object prompt with parts, a schema and a tool', objectRequest, 1],
    ['a message with a key beyond role and content', { ...bench, messages: [{ role: 'user', content: 'x', name: 'n' } as never] }, 0],
    ['a message whose content comes first', { ...bench, messages: [{ content: 'x', role: 'user' } as never] }, 3],
    ['a message with a toJSON', { ...bench, messages: [{ role: 'user', content: 'x', toJSON: () => 'y' } as never] }, 0],
    ['a hole in the messages', { ...bench, messages: [undefined as never, bench.messages[1]!] }, 0],
    ['no provider prefix and stop sequences', { ...bench, modelName: 'bare', settings: { stopSequences: ['b', 'a'], seed: 1 } }, 0],
    ['an undefined setting', { ...bench, settings: { temperature: undefined, topP: 0.5 } }, 0],
  ])('is the sha256 of the whole payload’s canonical JSON: %s', (_name, request, repeat) => {
    expect(cacheKey(request as ModelRequest, repeat, objectTools)).toBe(reference(request as ModelRequest, repeat, objectTools));
  });
});
