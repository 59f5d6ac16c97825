import { readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { tempProject } from '../helpers/temp-project.js';
import { row, writeRun } from './synthetic-run.js';

const GONE = '20261130-100000.000-aaaaaa';
const SHORT = '20261130-110000.000-bbbbbb';
const WHOLE = '20261130-120000.000-cccccc';
const FLIPPED = '20261130-130000.000-dddddd';
const REORDERED = '20261130-140000.000-eeeeee';
const LATER = '20261130-150000.000-ffffff';
/** Rows with one eval "ok": rows 0 and 2 fail it, and their line differs in length from row 1's. */
const judged = () => [0, 1, 2].map((i) => row(i, { output: i === 1 ? 'a longer answer 1' : `answer ${i}`, evals: { ok: { passed: i === 1, score: i === 1 ? 1 : 0, normalized: i === 1 ? 1 : 0 } } }));
/** A verdict flipped by hand, keeping the file's size: `"passed":false` → `"passed": true`. */
const flip = (text: string) => text.replace('"passed":false', '"passed": true');
let project: { dir: string; cleanup: () => Promise<void> };
let server: ViewServer;
const results = (id: string) => join(project.dir, '.agentmark', 'runs', id, 'results.jsonl');

beforeAll(async () => {
  project = await tempProject({ 'agentmark.json': '{ "agentmarkPath": "." }' });
  for (const id of [GONE, SHORT, WHOLE]) await writeRun(project.dir, { id, evalNames: [], rows: [row(0), row(1), row(2)] });
  await rm(results(GONE));
  const text = await readFile(results(SHORT), 'utf8');
  await writeFile(results(SHORT), `${text.split('\n').slice(0, 2).join('\n')}\n`);
  for (const id of [FLIPPED, REORDERED, LATER]) await writeRun(project.dir, { id, evalNames: ['ok'], rows: judged() });
  await writeFile(results(FLIPPED), flip(await readFile(results(FLIPPED), 'utf8')));
  const [a, b, c] = (await readFile(results(REORDERED), 'utf8')).split('\n');
  await writeFile(results(REORDERED), `${[b, a, c].join('\n')}\n`);
  server = await startViewServer({ projectRoot: project.dir, port: 0 });
});
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

const get = async (path: string) => {
  const response = await fetch(`${server.url}${path.slice(1)}`);
  return { status: response.status, body: await response.text() };
};

describe('the viewer checks a finished run\'s results against its manifest', () => {
  it('a results file that is gone: 410 on the rows and index routes, naming the run, with no path in the body', async () => {
    for (const path of [`/api/runs/${GONE}/rows?at=0,1`, `/api/runs/${GONE}/index`, `/api/runs/${GONE}/rows/0`]) {
      const reply = await get(path);
      expect(reply.status, path).toBe(410);
      expect(JSON.parse(reply.body)).toEqual({ error: `run ${GONE}: expected 3 result rows (as its manifest records), found none: the file is missing` });
      expect(reply.body).not.toContain(project.dir);
    }
  });

  it('a results file short of a row: 409 saying how many rows were expected and found, never 2 rows shown as the run', async () => {
    const reply = await get(`/api/runs/${SHORT}/index`);
    expect(reply.status).toBe(409);
    expect(JSON.parse(reply.body)).toEqual({ error: `run ${SHORT}: expected 3 result rows (as its manifest records), found 2` });
    expect(reply.body).not.toContain(project.dir);
  });

  it('a whole run is served as before', async () => {
    const reply = await get(`/api/runs/${WHOLE}/rows?at=0,1,2`);
    expect(reply.status).toBe(200);
    expect((JSON.parse(reply.body) as { rows: unknown[] }).rows).toHaveLength(3);
  });

  const mismatch = (id: string) => new RegExp(`^run ${id}: its results do not match its manifest: 3 rows as recorded, but their content changed \\(sha256 [0-9a-f]{12}, recorded [0-9a-f]{12}\\)$`);

  it('a verdict flipped by hand, same size: 409 as the CLI refuses it (STORE_RESULTS_MISMATCH), never PASS shown as genuine', async () => {
    for (const path of [`/api/runs/${FLIPPED}/rows?at=0,1,2`, `/api/runs/${FLIPPED}/index`, `/api/runs/${FLIPPED}/rows/0`, `/api/runs/${FLIPPED}/review`, `/api/runs/${FLIPPED}/search?q=answer`]) {
      const reply = await get(path);
      expect(reply.status, path).toBe(409);
      expect((JSON.parse(reply.body) as { error: string }).error, path).toMatch(mismatch(FLIPPED));
    }
  });

  it('reordered lines: 409 with the reason, not a 500', async () => {
    for (const path of [`/api/runs/${REORDERED}/rows?at=0,1,2`, `/api/runs/${REORDERED}/rows/1`]) {
      const reply = await get(path);
      expect(reply.status, path).toBe(409);
      expect((JSON.parse(reply.body) as { error: string }).error, path).toMatch(mismatch(REORDERED));
    }
  });

  it('a flip made after the viewer opened the run is seen too', async () => {
    expect((await get(`/api/runs/${LATER}/rows?at=0,1,2`)).status).toBe(200);
    await writeFile(results(LATER), flip(await readFile(results(LATER), 'utf8')));
    // A hand edit comes later; file times are coarse (a few ms), so set one clearly after it.
    const later = new Date('2100-01-01T00:00:00Z');
    await utimes(results(LATER), later, later);
    const reply = await get(`/api/runs/${LATER}/rows?at=0,1,2`);
    expect(reply.status).toBe(409);
    expect((JSON.parse(reply.body) as { error: string }).error).toMatch(mismatch(LATER));
  });
});
