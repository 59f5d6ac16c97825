import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import { startOpenAIServer, echoResponder, type OpenAIServer, type OpenAIResponder } from '../helpers/openai-server.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { cuttableProxy } from '../helpers/cuttable-proxy.js';
import { commitAllOnMain } from '../helpers/git-repo.js';

let db: TestPostgres;
let made = 0;
let url: string;
let storage: PgStorage;
let server: OpenAIServer;
let responder: OpenAIResponder = echoResponder;
const projects: CliProject[] = [];

beforeAll(async () => {
  db = await startPostgres();
  server = await startOpenAIServer({ handler: (request) => responder(request) });
}, 60_000);
afterAll(async () => {
  await server.close();
  await db.stop();
});
beforeEach(async () => {
  made += 1;
  url = await db.createDatabase(`team_${made}`);
  storage = await PgStorage.connect(url, { migrate: true });
  responder = echoResponder;
});
afterEach(async () => {
  await storage.close();
  for (const project of projects.splice(0)) await project.cleanup();
});

/** A clone of the echo project: its own folder and git repository on branch main, nothing shared. */
async function clone(): Promise<CliProject> {
  const project = await cliProject();
  projects.push(project);
  commitAllOnMain(project.dir);
  return project;
}

const env = (): NodeJS.ProcessEnv => ({ AGENTMARK_STORE_URL: url });

test('a run made in one clone streams to the store (running, then completed); a second clone lists it and compares @main with latest', async () => {
  const first = await clone();
  let release: () => void = () => undefined;
  let arrived: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const seen = new Promise<void>((resolve) => (arrived = resolve));
  responder = async (request) => {
    arrived();
    await held;
    return echoResponder(request);
  };
  const running = first.run(['run-experiment', 'prompts/echo.prompt.mdx'], { server, env: env() });
  await seen;
  const [whileRunning] = await storage.listRuns();
  expect(whileRunning).toMatchObject({ status: 'running', prompt: { path: 'prompts/echo.prompt.mdx' }, git: { branch: 'main' } });
  release();
  const made = await running;
  // The fixture's third row expects GAMMA: the echo fails it, so the gate fails (exit 1).
  expect(made.code).toBe(1);
  const [id] = await first.runIds();
  const stored = await storage.getRun(id as string);
  expect(stored).toMatchObject({ id, status: 'completed', integrity: { rows: 3 } });
  await storage.checkRun(id as string);

  responder = echoResponder;
  const second = await clone();
  const listed = await second.run(['runs', '--format', 'json'], { env: env() });
  expect((JSON.parse(listed.stdout) as Array<{ id: string }>).map((run) => run.id)).toEqual([id]);
  const compared = await second.run(['compare', '@main', 'latest', '--format', 'json'], { env: env() });
  expect(compared.stderr).toBe('');
  expect(compared.code).toBe(0);
  const result = JSON.parse(compared.stdout) as { base: { id: string }; head: { id: string } };
  expect([result.base.id, result.head.id]).toEqual([id, id]);
}, 60_000);

test('the database down at the start of a run: the run goes on locally with one warning', async () => {
  const project = await clone();
  const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx'], { server, env: { AGENTMARK_STORE_URL: 'postgres://agentmark:pw@127.0.0.1:1/x' } });
  expect(result.code).toBe(1);
  const warnings = result.stderr.split('\n').filter((line) => line.includes('team store'));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain('the team store is not available');
  expect(warnings[0]).toContain('agentmark runs push');
  expect(result.stderr).not.toContain(':pw@');
  expect(await project.runIds()).toHaveLength(1);
}, 60_000);

test('a connection lost mid-run is retried: the run goes on locally, its rows catch up, and the output says how long the store lagged', async () => {
  const project = await clone();
  const proxy = await cuttableProxy(db.port);
  let release: () => void = () => undefined;
  let arrived: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const seen = new Promise<void>((resolve) => (arrived = resolve));
  responder = async (request) => {
    arrived();
    await held;
    return echoResponder(request);
  };
  const through = url.replace(`:${db.port}/`, `:${proxy.port}/`);
  const running = project.run(['run-experiment', 'prompts/echo.prompt.mdx'], { server, env: { AGENTMARK_STORE_URL: through } });
  await seen;
  proxy.cut();
  const refused = proxy.nextRefusal();
  release();
  // The store's retry arrives while the line is cut: the connection was lost and is being retried.
  await refused;
  proxy.mend();
  const result = await running;
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/the team store lagged \d+\.\d s behind the local files \(its connection was lost\); it has caught up/);
  const [id] = await project.runIds();
  expect(await storage.getRun(id as string)).toMatchObject({ status: 'completed', integrity: { rows: 3 } });
  expect(await storage.rowCount(id as string)).toBe(3);
  await storage.checkRun(id as string);
  await proxy.close();
}, 60_000);
