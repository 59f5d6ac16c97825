import { request, type ClientRequest } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import type { RunManifest } from '../../src/store/types.js';
import type { RunEvent, RunResponse, RunsResponse } from '../../src/view/api-types.js';
import { tempProject } from '../helpers/temp-project.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { REVIEW_PROJECT, REVIEW_RUN, reviewProject } from '../view/review-run.js';
import { createToken, send, startServe } from './serve-process.js';

let pg: TestPostgres;
let made: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  pg = await startPostgres();
  made = await reviewProject();
}, 120_000);
afterAll(async () => {
  await made?.cleanup();
  await pg?.stop();
});

/** A server-sent event stream: resolves `next(test)` with the first event (so far or to come) that passes. */
function eventStream(port: number, path: string, token: string): { next(test: (event: RunEvent) => boolean): Promise<RunEvent>; close(): void } {
  const events: RunEvent[] = [];
  const waiters: Array<{ test: (event: RunEvent) => boolean; resolve: (event: RunEvent) => void }> = [];
  const check = (): void => {
    for (const waiter of [...waiters]) {
      const found = events.find(waiter.test);
      if (found) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(found);
      }
    }
  };
  let buffer = '';
  const req: ClientRequest = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}` } }, (res) => {
    res.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const parts = buffer.split('\n\n');
      buffer = parts.pop() ?? '';
      for (const part of parts) if (part.startsWith('data: ')) events.push(JSON.parse(part.slice(6)) as RunEvent);
      check();
    });
  });
  req.on('error', () => undefined);
  req.end();
  return {
    next: (test) =>
      new Promise((resolve) => {
        waiters.push({ test, resolve });
        check();
      }),
    close: () => req.destroy(),
  };
}

describe('agentmark serve: a run streaming into the store', () => {
  it('lists it as running while its rows arrive, sends the new rows to an open page, then shows it completed', async () => {
    const url = await pg.createDatabase('serve_live');
    const env = { AGENTMARK_STORE_URL: url };
    const dir = join(made.dir, '.agentmark', 'runs', REVIEW_RUN);
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as RunManifest;
    const lines = (await readFile(join(dir, 'results.jsonl'), 'utf8')).split('\n').filter((l) => l !== '');
    const storage = await PgStorage.connect(url, { migrate: true });
    // As run-experiment streams a run: created running (no summary, no record), rows in batches.
    const { integrity, summary, endedAt, ...started } = manifest;
    await storage.createRun({ ...started, status: 'running' });
    await storage.appendRows(REVIEW_RUN, 0, lines.slice(0, 5));
    const clone = await tempProject(REVIEW_PROJECT);
    try {
      const token = await createToken(clone.dir, 'vera', 'viewer', env);
      const bearer = { authorization: `Bearer ${token}` };
      const server = await startServe(clone.dir, [], env);
      try {
        const runs = JSON.parse((await send(server, 'GET', '/api/runs', bearer)).body) as RunsResponse;
        expect(runs.runs.map((r) => [r.id, r.status])).toEqual([[REVIEW_RUN, 'running']]);
        const run = JSON.parse((await send(server, 'GET', `/api/runs/${REVIEW_RUN}`, bearer)).body) as RunResponse;
        expect([run.manifest.status, run.rowCount, run.live?.rows]).toEqual(['running', 5, 5]);
        const events = eventStream(server.port, `/api/runs/${REVIEW_RUN}/events?since=5`, token);
        try {
          // The stream's first answer: the run as it is, before any new row.
          await events.next((e) => e.type === 'run');
          await storage.appendRows(REVIEW_RUN, 5, lines.slice(5));
          const rows = await events.next((e) => e.type === 'rows');
          expect(rows.type === 'rows' ? [rows.from, rows.entries.map((entry) => entry[0])] : undefined).toEqual([5, [5, 6, 7]]);
          await storage.complete(REVIEW_RUN, { status: 'completed', integrity: integrity as NonNullable<RunManifest['integrity']>, ...(summary ? { summary } : {}), ...(endedAt ? { endedAt } : {}) });
          const ended = await events.next((e) => e.type === 'run' && e.run.manifest.status === 'completed');
          expect(ended.type === 'run' ? [ended.run.rowCount, ended.run.manifest.summary?.rows] : undefined).toEqual([8, 8]);
        } finally {
          events.close();
        }
        const after = JSON.parse((await send(server, 'GET', '/api/runs', bearer)).body) as RunsResponse;
        expect(after.runs.map((r) => [r.id, r.status, r.rows])).toEqual([[REVIEW_RUN, 'completed', 8]]);
        const index = await send(server, 'GET', `/api/runs/${REVIEW_RUN}/index`, bearer);
        expect(index.status).toBe(200);
        expect((JSON.parse(index.body) as { index: number[] }).index).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
        const rows = JSON.parse((await send(server, 'GET', `/api/runs/${REVIEW_RUN}/rows?at=7`, bearer)).body) as { rows: Array<{ row: { index: number } }> };
        expect(rows.rows.map((r) => r.row.index)).toEqual([7]);
        // The index the followed copy wrote is kept in the store (after the sync that saw the end, which /api/runs waited for).
        const kept = await storage.pool.query<{ rows: number; sha256: string }>('SELECT rows, sha256 FROM agentmark_view_index WHERE run_id = $1', [REVIEW_RUN]);
        expect(kept.rows).toEqual([{ rows: 8, sha256: integrity?.sha256 }]);
      } finally {
        await server.stop();
      }
    } finally {
      await storage.close();
      await clone.cleanup();
    }
  }, 60_000);
});
