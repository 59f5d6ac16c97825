import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { resolveStoreRef } from '../../src/history/resolve-store-ref.js';
import { ABANDONED_AFTER_MS, HEARTBEAT_EVERY_MS } from '../../src/store/heartbeat.js';
import { LocalStorage } from '../../src/store/local/local-storage.js';
import { copyRun } from '../../src/store/transfer/copy-run.js';
import { StoreMirror } from '../../src/store/transfer/store-mirror.js';
import type { PgStorage } from '../../src/store/postgres/pg-storage.js';
import type { RunManifest } from '../../src/store/types.js';
import type { RunResponse, RunsResponse } from '../../src/view/api-types.js';
import { tempProject } from '../helpers/temp-project.js';
import { createToken, send, startServe } from '../serve/serve-process.js';
import { REVIEW_PROJECT, REVIEW_RUN, reviewProject } from '../view/review-run.js';
import { usePostgresStore } from '../helpers/store-test.js';
import { manifest, row, tempDir } from './fixtures.js';
import { makeLocalRun } from './store-runs.js';

const db = usePostgresStore('abandoned');
let made: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  made = await reviewProject();
}, 60_000);
afterAll(() => made?.cleanup());

/** Moves the run's heartbeat `ms` into the past, as if that long went by with no word from its writer. */
async function heardFromAgo(storage: PgStorage, id: string, ms: number): Promise<void> {
  await storage.pool.query('UPDATE agentmark_runs SET heartbeat_at = now() - make_interval(secs => $2) WHERE id = $1', [id, ms / 1000]);
}

const RUN = '20261202T060000Z-abandoned';
const lines = (n: number): string[] => Array.from({ length: n }, (_, i) => JSON.stringify(row(i)));

test('the threshold is two minutes; the writer beats every 15 s', () => {
  expect([ABANDONED_AFTER_MS, HEARTBEAT_EVERY_MS]).toEqual([120_000, 15_000]);
});

test('a running run not heard from for ABANDONED_AFTER_MS reads abandoned in getRun and listRuns; a batch or a heartbeat makes it running again', async () => {
  const { storage } = db;
  await storage.createRun(manifest(RUN));
  await storage.appendRows(RUN, 0, lines(2));
  expect((await storage.getRun(RUN))?.status).toBe('running');

  // One second short of the threshold: still running.
  await heardFromAgo(storage, RUN, ABANDONED_AFTER_MS - 1_000);
  expect((await storage.getRun(RUN))?.status).toBe('running');
  await heardFromAgo(storage, RUN, ABANDONED_AFTER_MS + 1_000);
  const abandoned = await storage.getRun(RUN);
  expect(abandoned?.status).toBe('abandoned');
  // When it was last heard from, as the database has it (its clock, in ISO 8601 UTC).
  const beat = await storage.pool.query<{ at: Date }>('SELECT heartbeat_at AS at FROM agentmark_runs WHERE id = $1', [RUN]);
  expect(abandoned?.heartbeatAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect(abandoned?.heartbeatAt).toBe(new Date(Math.floor((beat.rows[0]?.at as Date).getTime())).toISOString());
  expect((await storage.listRuns()).map((m) => [m.id, m.status])).toEqual([[RUN, 'abandoned']]);
  expect((await storage.listRuns({ status: 'abandoned' })).map((m) => m.id)).toEqual([RUN]);
  expect(await storage.listRuns({ status: 'running' })).toEqual([]);
  // The stored manifest is left as written: only readers see `abandoned`.
  const { rows } = await storage.pool.query<{ status: string; manifest: string }>('SELECT status, manifest FROM agentmark_runs WHERE id = $1', [RUN]);
  expect([rows[0]?.status, (JSON.parse(rows[0]?.manifest as string) as { status: string }).status]).toEqual(['running', 'running']);

  // The writer's next batch says it is alive.
  await storage.appendRows(RUN, 2, lines(3).slice(2));
  expect((await storage.getRun(RUN))?.status).toBe('running');
  await heardFromAgo(storage, RUN, ABANDONED_AFTER_MS + 1_000);
  await storage.touchRun(RUN);
  expect((await storage.listRuns({ status: 'running' })).map((m) => m.id)).toEqual([RUN]);

  // An update of an abandoned run never writes `abandoned` (nor the heartbeat) into its manifest.
  await heardFromAgo(storage, RUN, ABANDONED_AFTER_MS + 1_000);
  await storage.updateRun(RUN, { endedAt: '2026-12-02T06:10:00.000Z' });
  const after = await storage.pool.query<{ manifest: string }>('SELECT manifest FROM agentmark_runs WHERE id = $1', [RUN]);
  const written = JSON.parse(after.rows[0]?.manifest as string) as Record<string, unknown>;
  expect([written.status, 'heartbeatAt' in written]).toEqual(['running', false]);
});

test('a completed run stays completed however old its heartbeat', async () => {
  const { storage } = db;
  const { dir, cleanup } = await tempDir();
  try {
    await makeLocalRun(dir, RUN, 3);
    await copyRun(new LocalStorage(dir), storage, RUN);
    await heardFromAgo(storage, RUN, 10 * ABANDONED_AFTER_MS);
    expect((await storage.getRun(RUN))?.status).toBe('completed');
    expect((await storage.getRun(RUN))?.heartbeatAt).toBeUndefined();
  } finally {
    await cleanup();
  }
});

test('@main, branch: and latest never pick an abandoned run; naming it says it is abandoned and how to continue it', async () => {
  const { storage } = db;
  const { dir, cleanup } = await tempDir();
  try {
    const done = '20261202T050000Z-done';
    await makeLocalRun(dir, done, 2, { branch: 'main', commit: 'c0ffee00' });
    await copyRun(new LocalStorage(dir), storage, done);
    // Newer, on main, killed after two rows.
    await storage.createRun({ ...manifest(RUN, '2026-12-02T06:00:00.000Z'), git: { commit: 'c0ffee00', dirty: false, branch: 'main' } });
    await storage.appendRows(RUN, 0, lines(2));
    await heardFromAgo(storage, RUN, ABANDONED_AFTER_MS + 1_000);
    const prompt = 'prompts/math.prompt.mdx';
    expect((await resolveStoreRef(storage, '@main', prompt)).id).toBe(done);
    expect((await resolveStoreRef(storage, 'branch:main', prompt)).id).toBe(done);
    expect((await resolveStoreRef(storage, 'latest', prompt)).id).toBe(done);
    expect((await resolveStoreRef(storage, 'commit:c0ffee00', prompt)).id).toBe(done);
    const named = await resolveStoreRef(storage, RUN, prompt);
    expect(named.status).toBe('abandoned');
    const elsewhere = await tempDir();
    try {
      const error = await copyRun(storage, new LocalStorage(elsewhere.dir), RUN).catch((e: unknown) => e as { code: string; message: string; hint: string });
      expect((error as { code: string }).code).toBe('STORE_RUN_NOT_FINISHED');
      expect((error as { message: string }).message).toBe(`run ${RUN} is abandoned in ${storage.location}: its writer stopped without finishing it (last heard from ${named.heartbeatAt as string})`);
      expect((error as { hint: string }).hint).toBe(`continue it on the machine that ran it (\`agentmark run-experiment prompts/math.prompt.mdx --resume ${RUN}\`), or push it from there once it finished (\`agentmark runs push ${RUN}\`)`);
    } finally {
      await elsewhere.cleanup();
    }
  } finally {
    await cleanup();
  }
});

test('runs push of the finished local run completes the abandoned copy: the rows it lacked are sent, none twice', async () => {
  const { storage } = db;
  const { dir, cleanup } = await tempDir();
  try {
    const integrity = await makeLocalRun(dir, RUN, 5);
    // The streamed copy: two of the five rows, then the writer went silent.
    await storage.createRun(manifest(RUN));
    await storage.appendRows(RUN, 0, lines(2));
    await heardFromAgo(storage, RUN, ABANDONED_AFTER_MS + 1_000);
    const pushed = await copyRun(new LocalStorage(dir), storage, RUN);
    expect(pushed).toEqual({ id: RUN, rows: 5, sent: 3, already: false });
    expect(await storage.getRun(RUN)).toMatchObject({ status: 'completed', integrity });
    const { rows } = await storage.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM agentmark_rows WHERE run_id = $1', [RUN]);
    expect(rows[0]?.n).toBe(5);
  } finally {
    await cleanup();
  }
});

test('the streaming writer beats on its timer when it has no rows to send; a resumed writer is heard from at once', async () => {
  const { storage } = db;
  const { dir, cleanup } = await tempDir();
  try {
    const runDir = join(dir, 'run');
    await mkdir(runDir);
    await writeFile(join(runDir, 'results.jsonl'), '');
    let now = 1_000_000;
    const warnings: string[] = [];
    const mirror = await StoreMirror.start(db.url, dir, runDir, manifest(RUN), { now: () => now, warn: (m) => warnings.push(m) });
    expect(mirror).toBeDefined();
    try {
      expect((await storage.getRun(RUN))?.status).toBe('running');
      await heardFromAgo(storage, RUN, ABANDONED_AFTER_MS + 1_000);
      // Less than a beat since it was last heard from, and no rows: nothing is sent.
      now += HEARTBEAT_EVERY_MS - 1;
      expect(await mirror?.sync()).toBe(true);
      expect((await storage.getRun(RUN))?.status).toBe('abandoned');
      now += 1;
      expect(await mirror?.sync()).toBe(true);
      expect((await storage.getRun(RUN))?.status).toBe('running');
      // A batch is a beat too: the timer's next beat is a whole beat after it.
      await heardFromAgo(storage, RUN, ABANDONED_AFTER_MS + 1_000);
      await writeFile(join(runDir, 'results.jsonl'), `${lines(1)[0]}\n`);
      now += 10;
      expect(await mirror?.sync()).toBe(true);
      expect([(await storage.getRun(RUN))?.status, await storage.rowCount(RUN)]).toEqual(['running', 1]);
    } finally {
      await mirror?.stop();
    }
    // Killed: silent past the threshold. A resume starts a mirror on the run already there.
    await heardFromAgo(storage, RUN, ABANDONED_AFTER_MS + 1_000);
    expect((await storage.getRun(RUN))?.status).toBe('abandoned');
    const resumed = await StoreMirror.start(db.url, dir, runDir, manifest(RUN), { now: () => now, warn: (m) => warnings.push(m) });
    expect((await storage.getRun(RUN))?.status).toBe('running');
    await resumed?.stop();
    expect(warnings).toEqual([]);
  } finally {
    await cleanup();
  }
});

/** The review project's run in the store as its writer left it: `running`, with its first `rows` rows. */
async function storeReviewRunStarted(storage: PgStorage, rows: number): Promise<void> {
  const dir = join(made.dir, '.agentmark', 'runs', REVIEW_RUN);
  const stored = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as RunManifest;
  const reviewLines = (await readFile(join(dir, 'results.jsonl'), 'utf8')).split('\n').filter((l) => l !== '');
  const { integrity: _i, summary: _s, endedAt: _e, ...started } = stored;
  await storage.createRun({ ...started, status: 'running' });
  await storage.appendRows(REVIEW_RUN, 0, reviewLines.slice(0, rows));
}

test("serve's /api/runs lists a store run whose writer went silent as abandoned, with the rows it got", async () => {
  const { storage } = db;
  await storeReviewRunStarted(storage, 5);
  await heardFromAgo(storage, REVIEW_RUN, ABANDONED_AFTER_MS + 1_000);
  const clone = await tempProject(REVIEW_PROJECT);
  try {
    const env = { AGENTMARK_STORE_URL: db.url };
    const token = await createToken(clone.dir, 'vera', 'viewer', env);
    const server = await startServe(clone.dir, [], env);
    try {
      const runs = JSON.parse((await send(server, 'GET', '/api/runs', { authorization: `Bearer ${token}` })).body) as RunsResponse;
      expect(runs.runs.map((r) => [r.id, r.status])).toEqual([[REVIEW_RUN, 'abandoned']]);
      const run = JSON.parse((await send(server, 'GET', `/api/runs/${REVIEW_RUN}`, { authorization: `Bearer ${token}` })).body) as RunResponse;
      expect([run.manifest.status, run.rowCount]).toEqual(['abandoned', 5]);
    } finally {
      await server.stop();
    }
  } finally {
    await clone.cleanup();
  }
}, 60_000);

test('a run serve follows while it is written turns abandoned there when its writer goes silent, though nothing about the run changed', async () => {
  const { storage } = db;
  await storage.removeRun(REVIEW_RUN).catch(() => undefined);
  await storeReviewRunStarted(storage, 3);
  const clone = await tempProject(REVIEW_PROJECT);
  try {
    const env = { AGENTMARK_STORE_URL: db.url };
    const token = await createToken(clone.dir, 'vera', 'viewer', env);
    const server = await startServe(clone.dir, [], env);
    const statusThere = async (): Promise<string | undefined> =>
      (JSON.parse((await send(server, 'GET', '/api/runs', { authorization: `Bearer ${token}` })).body) as RunsResponse).runs.find((r) => r.id === REVIEW_RUN)?.status;
    try {
      expect(await statusThere()).toBe('running');
      // Time passing: the heartbeat ages with no write to the run, so its change number stays.
      await storage.pool.query('ALTER TABLE agentmark_runs DISABLE TRIGGER agentmark_runs_change');
      try {
        await heardFromAgo(storage, REVIEW_RUN, ABANDONED_AFTER_MS + 1_000);
      } finally {
        await storage.pool.query('ALTER TABLE agentmark_runs ENABLE TRIGGER agentmark_runs_change');
      }
      await expect.poll(statusThere, { timeout: 30_000, interval: 100 }).toBe('abandoned');
    } finally {
      await server.stop();
    }
  } finally {
    await clone.cleanup();
  }
}, 60_000);

test('a shard whose writer went silent is listed abandoned in its group, so a merge refuses it as not finished', async () => {
  const { storage } = db;
  const shard = { index: 1, count: 2, group: 'g-abandoned', evals: ['exact'] };
  await storage.createRun({ ...manifest(RUN), shard });
  await heardFromAgo(storage, RUN, ABANDONED_AFTER_MS + 1_000);
  expect((await storage.listShards('g-abandoned')).map((m) => [m.id, m.status])).toEqual([[RUN, 'abandoned']]);
});
