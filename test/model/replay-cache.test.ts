import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedCall, ResponseCache, type ModelRequest, type ModelResponse } from '../../src/model/index.js';

let dir: string;
let live: string;
let replay: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentmark-replay-'));
  live = join(dir, 'live');
  replay = join(dir, 'replay');
  await mkdir(replay);
});
afterEach(async () => {
  await chmod(replay, 0o755);
  await rm(dir, { recursive: true, force: true });
});

const request: ModelRequest = {
  modelName: 'openai/gpt-4o-mini',
  kind: 'text',
  messages: [{ role: 'user', content: 'replay me' }],
  settings: { temperature: 0 },
};
const answer = (output: string): ModelResponse => ({
  output,
  toolCalls: [],
  usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
  finishReason: 'stop',
  latencyMs: 7,
  costUsd: 0.001,
  cached: false,
  retries: 0,
});
/** A recorded segment line, as a live run writes it into its cache. */
const line = (key: string, output: string): string => `${JSON.stringify({ key, response: answer(output) })}\n`;

/** A call whose live side must not happen. */
const noLiveCall = (): Promise<ModelResponse> => Promise.reject(new Error('no live call expected'));

describe('ResponseCache with a replay folder', () => {
  it('answers from the replay folder first, and from the live cache what the folder lacks', async () => {
    const cache = new ResponseCache(live, () => {}, replay);
    const key = cache.key(request, 0);
    const other = cache.key(request, 1);
    await writeFile(join(replay, `${key[0]}.jsonl`), line(key, 'recorded'));
    await new ResponseCache(live).set(key, answer('live, for the same key'));
    await new ResponseCache(live).set(other, answer('live only'));

    expect((await cache.get(key))?.output).toBe('recorded');
    expect((await cache.get(other))?.output).toBe('live only');
    expect(await cache.get(cache.key(request, 2))).toBeUndefined();
  });

  it('a replay hit counts as cached, also under --cache-only, and calls nothing', async () => {
    const cache = new ResponseCache(live, () => {}, replay);
    const key = cache.key(request, 0);
    await writeFile(join(replay, `${key[0]}.jsonl`), line(key, 'recorded'));
    const hit = await cachedCall(request, { cache, mode: 'only', repeat: 0 }, noLiveCall);
    expect(hit).toEqual({ ...answer('recorded'), cached: true, retries: 0 });
    const used = await cachedCall(request, { cache, mode: 'use', repeat: 0 }, noLiveCall);
    expect(used.cached).toBe(true);
  });

  it('is never written: live answers (--no-cache included) go to the live cache, even with the folder read-only', async () => {
    const cache = new ResponseCache(live, () => {}, replay);
    const key = cache.key(request, 0);
    const recorded = line(key, 'recorded');
    await writeFile(join(replay, `${key[0]}.jsonl`), recorded);
    await chmod(replay, 0o555);

    const fresh = await cachedCall(request, { cache, mode: 'off', repeat: 0 }, async () => answer('fresh'));
    expect(fresh.output).toBe('fresh');
    await cachedCall({ ...request, messages: [{ role: 'user', content: 'new' }] }, { cache, mode: 'use', repeat: 0 }, async () => answer('new'));
    await cache.close();

    expect(await readdir(replay)).toEqual([`${key[0]}.jsonl`]);
    expect(await readFile(join(replay, `${key[0]}.jsonl`), 'utf8')).toBe(recorded);
    expect((await new ResponseCache(live).get(key))?.output).toBe('fresh');
    // The recorded answer still wins for a later offline run.
    expect((await new ResponseCache(live, () => {}, replay).get(key))?.output).toBe('recorded');
  });
});
