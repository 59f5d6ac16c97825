import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoredResponseCache } from '../../src/model/index.js';
import type { ModelResponse } from '../../src/model/types.js';
import { openAnswerStore } from '../../src/store/open-answer-store.js';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { FIXTURES, tempProject } from '../helpers/temp-project.js';
import { cliProject } from '../cli/cli-project.js';

let pg: TestPostgres;
let server: OpenAIServer;
let url: string;

beforeAll(async () => {
  pg = await startPostgres();
  url = await pg.createDatabase('shared_cache');
  await (await PgStorage.connect(url, { migrate: true })).close();
  server = await startOpenAIServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
  await pg?.stop();
});

async function cacheRows(): Promise<number> {
  const storage = await PgStorage.connect(url);
  const { rows } = await storage.pool.query<{ n: string }>('SELECT count(*) AS n FROM agentmark_cache');
  await storage.close();
  return Number(rows[0]?.n);
}

const answer = (output: string): ModelResponse => ({ output, toolCalls: [], usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, finishReason: 'stop', latencyMs: 5, costUsd: undefined, cached: false, retries: 0 });

/** The echo fixture's agentmark.json with `cache` set. */
const withCache = async (): Promise<Record<string, string>> => {
  const file = JSON.parse(await readFile(join(FIXTURES, 'cli', 'echo', 'agentmark.json'), 'utf8')) as Record<string, unknown>;
  return { 'agentmark.json': JSON.stringify({ ...file, cache: 'store' }) };
};

describe('cache: "store": the response cache shared through the team store', () => {
  it('a second clone answers every row from the store: 0 model calls', async () => {
    const files = await withCache();
    const first = await cliProject(files);
    const second = await cliProject(files);
    try {
      server.requests.length = 0;
      const a = await first.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--format', 'json'], { server, env: { AGENTMARK_STORE_URL: url } });
      expect(a.stderr).toBe('');
      expect(server.requests.length).toBe(3);
      expect(await cacheRows()).toBe(3);
      server.requests.length = 0;
      const b = await second.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--format', 'json'], { server, env: { AGENTMARK_STORE_URL: url } });
      expect(b.stderr).toBe('');
      expect(server.requests.length).toBe(0);
      const rows = (JSON.parse(b.stdout) as { rows: Array<{ cached?: boolean }> }).rows;
      expect(rows.map((r) => r.cached)).toEqual([true, true, true]);
    } finally {
      await first.cleanup();
      await second.cleanup();
    }
  }, 60_000);

  it('two writers of the same key keep one row, the first entry', async () => {
    const before = await cacheRows();
    const dirs = [await tempProject(), await tempProject()];
    try {
      const caches = dirs.map(({ dir }) => new StoredResponseCache(`${dir}/cache`, () => undefined, undefined, () => openAnswerStore(url)));
      const key = 'f'.repeat(64);
      caches[0]?.store(key, answer('first'));
      await caches[0]?.close();
      caches[1]?.store(key, answer('second'));
      await caches[1]?.close();
      expect(await cacheRows()).toBe(before + 1);
      const reader = new StoredResponseCache(`${dirs[1]?.dir}/empty`, () => undefined, undefined, () => openAnswerStore(url));
      expect((await reader.get(key))?.output).toBe('first');
      await reader.close();
    } finally {
      for (const d of dirs) await d.cleanup();
    }
  });

  it('"store" without a team store is a config error; an unreachable one warns once and caches locally', async () => {
    const project = await cliProject(await withCache());
    try {
      const none = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet'], { server });
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/"cache": "store" needs a team store, and this project has none/);
      const down = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--format', 'json'], { server, env: { AGENTMARK_STORE_URL: 'postgres://agentmark@127.0.0.1:1/x' } });
      expect(down.stderr.match(/the shared cache in the store is not used/g)?.length).toBe(1);
      expect(down.stderr).toMatch(/cannot reach the store's database at 127\.0\.0\.1:1/);
    } finally {
      await project.cleanup();
    }
  }, 60_000);
});
