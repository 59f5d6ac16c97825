import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonSchema, tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cachedCall,
  createProviderRegistry,
  executeModelRequest,
  ResponseCache,
  type ModelRequest,
  type ModelResponse,
} from '../../src/model/index.js';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';

let dir: string;
let server: OpenAIServer;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentmark-cache-'));
  server = await startOpenAIServer();
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const request: ModelRequest = {
  modelName: 'openai/gpt-4o-mini',
  kind: 'text',
  messages: [{ role: 'user', content: 'cache me' }],
  settings: { temperature: 0 },
};

const stored: ModelResponse = {
  output: 'stored answer',
  toolCalls: [],
  usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
  finishReason: 'stop',
  latencyMs: 42,
  costUsd: 0.001,
  cached: false,
  retries: 2,
};

describe('ResponseCache', () => {
  it('keys on content, not key order, and separates repeats, settings and tool descriptions', () => {
    const cache = new ResponseCache(dir);
    const key = cache.key(request, 0);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const reordered = { settings: { temperature: 0 }, messages: request.messages, kind: 'text', modelName: request.modelName } as const;
    expect(cache.key(reordered, 0)).toBe(key);
    expect(cache.key(request, 1)).not.toBe(key);
    expect(cache.key({ ...request, settings: { temperature: 0.1 } }, 0)).not.toBe(key);
    expect(cache.key({ ...request, modelName: 'openai/gpt-4o' }, 0)).not.toBe(key);
    const withTool = { ...request, tools: ['t'] };
    const t = (description: string) => ({ t: tool({ description, inputSchema: jsonSchema({ type: 'object' }), execute: async () => 1 }) });
    expect(cache.key(withTool, 0, t('one'))).not.toBe(cache.key(withTool, 0, t('two')));
  });

  it('separates every field that decides the answer: tool choice, call limit, schema, its name and description', () => {
    const cache = new ResponseCache(dir);
    const withTool: ModelRequest = { ...request, tools: ['t'] };
    const auto = cache.key({ ...withTool, toolChoice: 'auto' }, 0);
    expect(cache.key({ ...withTool, toolChoice: 'required' }, 0)).not.toBe(auto);
    expect(cache.key({ ...withTool, toolChoice: { type: 'tool', tool_name: 't' } }, 0)).not.toBe(auto);
    expect(cache.key(withTool, 0)).not.toBe(auto);
    expect(cache.key({ ...withTool, maxCalls: 3 }, 0)).not.toBe(cache.key({ ...withTool, maxCalls: 1 }, 0));
    const object: ModelRequest = { ...request, kind: 'object', schema: { type: 'object', properties: { city: { type: 'string' } } } };
    const key = cache.key(object, 0);
    expect(cache.key({ ...object, schema: { type: 'object', properties: { town: { type: 'string' } } } }, 0)).not.toBe(key);
    expect(cache.key({ ...object, schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }, 0)).not.toBe(key);
    expect(cache.key({ ...object, schemaName: 'place' }, 0)).not.toBe(key);
    expect(cache.key({ ...object, schemaDescription: 'where it is' }, 0)).not.toBe(key);
    expect(cache.key({ ...object, kind: 'text' }, 0)).not.toBe(key);
    expect(cache.key({ ...object, messages: [{ role: 'user', content: 'cache me too' }] }, 0)).not.toBe(key);
    // The same schema written in another key order is the same request.
    expect(cache.key({ ...object, schema: { properties: { city: { type: 'string' } }, type: 'object' } }, 0)).toBe(key);
  });

  it('appends to <dir>/<hex digit>.jsonl, one line per entry, and reads it back', async () => {
    const cache = new ResponseCache(dir);
    const key = cache.key(request, 0);
    await cache.set(key, stored);
    expect(await readdir(dir)).toEqual([`${key.slice(0, 1)}.jsonl`]);
    expect(await readFile(cache.pathOf(key), 'utf8')).toBe(`${JSON.stringify({ key, response: stored })}\n`);
    expect(await cache.get(key)).toEqual(stored);
    // A fresh instance (another run) finds it on disk.
    expect(await new ResponseCache(dir).get(key)).toEqual(stored);
  });

  it('lets the later entry for a key win', async () => {
    const cache = new ResponseCache(dir);
    const key = cache.key(request, 0);
    await cache.set(key, { ...stored, output: 'first' });
    await cache.set(key, { ...stored, output: 'second' });
    expect((await cache.get(key))?.output).toBe('second');
    expect((await new ResponseCache(dir).get(key))?.output).toBe('second');
  });

  it('treats a missing, torn or malformed line as a miss, and appends after a torn line cleanly', async () => {
    const cache = new ResponseCache(dir);
    const key = cache.key(request, 0);
    expect(await cache.get(key)).toBeUndefined();
    const full = JSON.stringify({ key, response: stored });
    await writeFile(cache.pathOf(key), full.slice(0, full.length / 2));
    expect(await new ResponseCache(dir).get(key)).toBeUndefined();
    await writeFile(cache.pathOf(key), `${JSON.stringify({ key, response: { output: 'x' } })}\n`);
    expect(await new ResponseCache(dir).get(key)).toBeUndefined();
    // A kill left half a line; the next append must start on its own line.
    await writeFile(cache.pathOf(key), full.slice(0, 40));
    const after = new ResponseCache(dir);
    await after.set(key, stored);
    expect(await after.get(key)).toEqual(stored);
    expect(await new ResponseCache(dir).get(key)).toEqual(stored);
  });

  it('keeps whole entries when several writers (instances) append to one segment', async () => {
    const key = new ResponseCache(dir).key(request, 0);
    const big = 'x'.repeat(200_000);
    const writers = Array.from({ length: 25 }, () => new ResponseCache(dir));
    await Promise.all(writers.map((writer, i) => writer.set(key, { ...stored, output: `${i}:${big}` })));
    const hit = await new ResponseCache(dir).get(key);
    expect(hit?.output).toMatch(/^\d+:x{200000}$/);
    expect(await readdir(dir)).toEqual([`${key.slice(0, 1)}.jsonl`]);
    // A writer whose offsets went stale (others appended since) still reads its own entry.
    expect((await writers[0]?.get(key))?.output).toMatch(/^\d+:x{200000}$/);
  });
});

describe('cachedCall', () => {
  const registry = () => createProviderRegistry({ baseURL: server.url, env: { OPENAI_API_KEY: 'sk-never-stored' } });
  const live = () => executeModelRequest(request, { registry: registry() });

  it('use: the first call goes live and is stored; the second makes zero requests', async () => {
    const cache = new ResponseCache(dir);
    const first = await cachedCall(request, { cache, mode: 'use', repeat: 0 }, live);
    expect(first).toMatchObject({ output: 'cache me', cached: false });
    const second = await cachedCall(request, { cache, mode: 'use', repeat: 0 }, live);
    expect(second).toEqual({ ...first, cached: true, retries: 0 });
    expect(server.requests).toHaveLength(1);
    // another repeat is another answer
    await cachedCall(request, { cache, mode: 'use', repeat: 1 }, live);
    expect(server.requests).toHaveLength(2);
  });

  it('off: always goes live, and still stores for later runs', async () => {
    const cache = new ResponseCache(dir);
    await cachedCall(request, { cache, mode: 'off', repeat: 0 }, live);
    await cachedCall(request, { cache, mode: 'off', repeat: 0 }, live);
    expect(server.requests).toHaveLength(2);
    const replay = await cachedCall(request, { cache, mode: 'only', repeat: 0 }, live);
    expect(replay).toMatchObject({ output: 'cache me', cached: true, retries: 0 });
    expect(server.requests).toHaveLength(2);
  });

  it('only: a miss is MODEL_CACHE_MISS and nothing is called', async () => {
    const cache = new ResponseCache(dir);
    const error = await cachedCall(request, { cache, mode: 'only', repeat: 0 }, live).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'MODEL_CACHE_MISS',
      message: 'openai/gpt-4o-mini: no cached response for this request (--cache-only)',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('never writes the API key to the cache', async () => {
    const cache = new ResponseCache(dir);
    await cachedCall(request, { cache, mode: 'use', repeat: 0 }, live);
    // The answer is stored while its segment opens; close writes whatever is still queued.
    await cache.close();
    const key = cache.key(request, 0);
    const text = await readFile(cache.pathOf(key), 'utf8');
    expect(text).toContain('"output":"cache me"');
    expect(text).not.toContain('sk-never-stored');
  });

  it('reports a failed cache write without failing the call', async () => {
    const blocked = join(dir, 'file-not-dir');
    await writeFile(blocked, '');
    const errors: unknown[] = [];
    const cache = new ResponseCache(blocked, (e) => errors.push(e));
    const response = await cachedCall(request, { cache, mode: 'use', repeat: 0 }, live);
    expect(response.output).toBe('cache me');
    await cache.close();
    expect(errors).toHaveLength(1);
  });
});
