import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import type { RunsResponse } from '../../src/view/api-types.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';
import { makeLocalRun } from './store-runs.js';

let server: TestPostgres;
let made = 0;
let url: string;
const projects: Array<{ dir: string; cleanup: () => Promise<void> }> = [];

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server.stop());
beforeEach(async () => {
  made += 1;
  url = await server.createDatabase(`view_${made}`);
  // The schema, as `agentmark store migrate` makes it.
  await (await PgStorage.connect(url, { migrate: true })).close();
});
afterEach(async () => {
  for (const project of projects.splice(0)) await project.cleanup();
});

async function clone(): Promise<string> {
  const project = await tempProject({ 'agentmark.json': '{ "version": "2.0.0" }\n' });
  projects.push(project);
  return project.dir;
}

/** Resolves with the first match of `pattern` in the child's stdout. */
function waitForStdout(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      text += chunk;
      const match = pattern.exec(text);
      if (match) resolve(match);
    });
    child.on('close', () => reject(new Error(`exited before ${String(pattern)}; stdout: ${text}`)));
  });
}

const ID = '20261130T031500Z-a';

test('a run pushed from one clone is served by `view @main` from a second clone with no local runs', async () => {
  const first = await clone();
  await makeLocalRun(first, ID, 3, { branch: 'main', commit: 'a'.repeat(40) });
  const pushed = await runCli(['runs', 'push', ID], { cwd: first, env: { AGENTMARK_STORE_URL: url }, timeoutMs: 120_000 });
  expect(pushed.code).toBe(0);

  const second = await clone();
  let child: ChildProcess | undefined;
  const done = runCli(['view', '@main', '--port', '0', '--read-only'], { cwd: second, env: { AGENTMARK_STORE_URL: url }, timeoutMs: 120_000, onSpawn: (c) => (child = c) });
  const [line, base] = await waitForStdout(child as ChildProcess, /(http:\/\/127\.0\.0\.1:\d+\/)\S*\n/);
  expect(line).toBe(`${base}#/runs/${ID}\n`);
  const { runs } = (await (await fetch(`${base}api/runs`)).json()) as RunsResponse;
  expect(runs.map((r) => r.id)).toEqual([ID]);
  child?.kill('SIGINT');
  const result = await done;
  expect(result.code).toBe(0);
  expect(result.stderr).toBe('');
}, 120_000);

test('`view @main` with a store that has no run on main and none locally is a usage error, exit 2', async () => {
  const dir = await clone();
  const result = await runCli(['view', '@main', '--port', '0'], { cwd: dir, env: { AGENTMARK_STORE_URL: url }, timeoutMs: 120_000 });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/^error: @main: /);
}, 120_000);

test('`annotate` of a run the store holds writes the label into the store too, not only into the local copy', async () => {
  const first = await clone();
  await makeLocalRun(first, ID, 3, { branch: 'main', commit: 'a'.repeat(40) });
  expect((await runCli(['runs', 'push', ID], { cwd: first, env: { AGENTMARK_STORE_URL: url }, timeoutMs: 120_000 })).code).toBe(0);
  const second = await clone();
  const labelled = await runCli(['annotate', '@main', '1', 'exact', '--fail', '--reviewer', 'ann', '--note', 'wrong'], { cwd: second, env: { AGENTMARK_STORE_URL: url }, timeoutMs: 120_000 });
  expect(labelled.stderr).toBe(`Labelled 1 eval result in run ${ID} (.agentmark/runs/${ID}/annotations.jsonl)\n`);
  expect(labelled.code).toBe(0);
  const storage = await PgStorage.connect(url);
  try {
    expect(await storage.readAnnotations(ID)).toMatchObject([{ eval: 'exact', reviewer: 'ann', note: 'wrong' }]);
  } finally {
    await storage.close();
  }
}, 120_000);
