/**
 * Scenario 16 (`shared-cache`): `cache: "store"` against the local cache, both holding 100,000
 * answers (a small project's 16, recorded live once, plus 99,984 others). Each measured run is
 * `run-experiment --cache-only` of the project answering its 16 rows: from the local segment
 * files (the baseline: `cache` unset, the cache folder filled), and from the team store (a real
 * PostgreSQL started here; `cache: "store"`, an empty local folder, so every answer comes from
 * the database, whose segments load as the local files do). Interleaved. Target: the store ≤ 2 ×
 * the local cache (issue 37).
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cliEnv } from './context.js';
import { measureNode } from './measure.js';
import { startPostgres } from './postgres-server.js';
import { createBenchProject } from './project.js';
import { median, metric } from './report.js';
import type { Scenario } from './scenarios.js';

const ENTRIES = 100_000;
const ROWS = 16;

function filler(i: number): { key: string; line: string } {
  const key = createHash('sha256').update(`filler ${i}`).digest('hex');
  const response = { output: `answer ${i}`, toolCalls: [], usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 }, finishReason: 'stop', latencyMs: 100, cached: false, retries: 0 };
  return { key, line: JSON.stringify({ key, response }) };
}

export const sharedCacheScenario: Scenario = {
  id: 'shared-cache',
  title: '16b cache: "store": 100k answers from PostgreSQL vs the local cache',
  async run(context, runs) {
    const project = await createBenchProject(ROWS);
    const pg = await startPostgres();
    const notes: string[] = [];
    const url = await pg.createDatabase('bench_cache');
    const env = { ...cliEnv(context.server), AGENTMARK_STORE_URL: url };
    // run-experiment reads the project's .agentmark/cache; the store's runs find it moved aside.
    const localDir = join(project.dir, '.agentmark', 'cache');
    const aside = join(project.dir, 'local-cache-aside');
    const config = JSON.parse(await readFile(join(project.dir, 'agentmark.json'), 'utf8')) as Record<string, unknown>;
    const setCache = (cache: 'store' | undefined): Promise<void> => writeFile(join(project.dir, 'agentmark.json'), `${JSON.stringify({ ...config, ...(cache ? { cache } : {}) }, null, 2)}\n`);
    const replay = () => measureNode([context.bin, 'run-experiment', project.promptPath, '--cache-only', '--quiet', '--format', 'json'], { cwd: project.dir, env, timeoutMs: 120_000 });
    try {
      const migrated = await measureNode([context.bin, 'store', 'migrate'], { cwd: project.dir, env, timeoutMs: 60_000 });
      if (migrated.code !== 0) notes.push(`store migrate: exit ${migrated.code}: ${migrated.stderr.slice(0, 200)}`);
      // Recorded once, live, into both: the store and the local folder.
      await setCache('store');
      const live = await measureNode([context.bin, 'run-experiment', project.promptPath, '--quiet', '--format', 'json'], { cwd: project.dir, env, timeoutMs: 120_000 });
      if (live.code !== 0 && live.code !== 1) notes.push(`recording run: exit ${live.code}: ${live.stderr.slice(0, 200)}`);
      const { default: pgModule } = await import('pg');
      const client = new pgModule.Client({ connectionString: url });
      await client.connect();
      const segments = new Map<string, string[]>();
      for (let start = 0; start < ENTRIES - ROWS; start += 1000) {
        const batch = Array.from({ length: Math.min(1000, ENTRIES - ROWS - start) }, (_, j) => filler(start + j));
        for (const { key, line } of batch) segments.set(key[0] as string, [...(segments.get(key[0] as string) ?? []), line]);
        await client.query('INSERT INTO agentmark_cache (key, segment, entry) SELECT k, left(k, 1), e FROM unnest($1::text[], $2::text[]) AS t(k, e) ON CONFLICT DO NOTHING', [batch.map((b) => b.key), batch.map((b) => b.line)]);
      }
      const stored = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM agentmark_cache')).rows[0]?.n);
      await client.end();
      if (stored !== ENTRIES) notes.push(`the store holds ${stored} answers, not ${ENTRIES}`);
      await mkdir(localDir, { recursive: true });
      for (const [digit, lines] of segments) await appendFile(join(localDir, `${digit}.jsonl`), `${lines.join('\n')}\n`);
      const local: number[] = [];
      const store: number[] = [];
      const requestsBefore = context.server.requests;
      for (let i = 0; i < runs; i += 1) {
        await setCache(undefined);
        const a = await replay();
        if (a.code !== 0 && a.code !== 1) notes.push(`local --cache-only: exit ${a.code}: ${a.stderr.slice(0, 200)}`);
        local.push(a.wallMs);
        await setCache('store');
        await rename(localDir, aside);
        const b = await replay();
        await rm(localDir, { recursive: true, force: true });
        await rename(aside, localDir);
        if (b.code !== 0 && b.code !== 1) notes.push(`store --cache-only: exit ${b.code}: ${b.stderr.slice(0, 200)}`);
        store.push(b.wallMs);
      }
      if (context.server.requests !== requestsBefore) notes.push(`${context.server.requests - requestsBefore} model requests from --cache-only runs`);
      const target = { value: 2 * median(local), source: 'issue 37', text: '≤ 2 × the local cache' };
      return {
        id: 'shared-cache',
        title: this.title,
        status: notes.length === 0 ? 'ok' : 'failed',
        notes: [...new Set(notes)],
        metrics: [metric('cache: "store" (16 rows of 100k answers)', 'ms', store, { target, ideal: median(local), idealText: 'the local cache' }), metric('local cache (16 rows of 100k answers)', 'ms', local)],
        details: { entries: ENTRIES, ratio: Math.round((median(store) / median(local)) * 100) / 100 },
      };
    } finally {
      await pg.stop();
      await project.cleanup();
    }
  },
};
