import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { tempProject } from '../helpers/temp-project.js';
import { row, writeRun } from './synthetic-run.js';

const GONE = '20261130-100000.000-aaaaaa';
const SHORT = '20261130-110000.000-bbbbbb';
const WHOLE = '20261130-120000.000-cccccc';
let project: { dir: string; cleanup: () => Promise<void> };
let server: ViewServer;
const results = (id: string) => join(project.dir, '.agentmark', 'runs', id, 'results.jsonl');

beforeAll(async () => {
  project = await tempProject({ 'agentmark.json': '{ "agentmarkPath": "." }' });
  for (const id of [GONE, SHORT, WHOLE]) await writeRun(project.dir, { id, evalNames: [], rows: [row(0), row(1), row(2)] });
  await rm(results(GONE));
  const text = await readFile(results(SHORT), 'utf8');
  await writeFile(results(SHORT), `${text.split('\n').slice(0, 2).join('\n')}\n`);
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
});
