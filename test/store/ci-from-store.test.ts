import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';
import { byInstruction, ciRepo, featureBranch, type CiRepo } from '../ci/ci-repo.js';

let db: TestPostgres;
let server: OpenAIServer;
let repo: CiRepo;
let jobs: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  db = await startPostgres();
  server = await startOpenAIServer({ handler: byInstruction });
  repo = await ciRepo(server);
  await featureBranch(repo);
  jobs = await tempProject();
}, 60_000);
afterAll(async () => {
  await server.close();
  await repo.cleanup();
  await jobs.cleanup();
  await db.stop();
});

test("ci takes its base from the team store: runs made on main by another clone, and no model call for the base", async () => {
  const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test', AGENTMARK_STORE_URL: await db.createDatabase('ci') };
  await runCli(['store', 'migrate'], { cwd: repo.dir, env });
  const onMain = join(jobs.dir, 'main');
  execFileSync('git', ['clone', '-q', '--branch', 'main', repo.dir, onMain]);
  const made = await runCli(['run-experiment', 'prompts/alpha.prompt.mdx', 'prompts/gamma.prompt.mdx'], { cwd: onMain, env, timeoutMs: 60_000 });
  expect(made.code).toBe(0);

  const job = join(jobs.dir, 'job');
  execFileSync('git', ['clone', '-q', '--branch', 'feature', repo.dir, job]);
  const before = server.requests.length;
  const result = await runCli(['ci', 'prompts/alpha.prompt.mdx', '--format', 'json'], { cwd: job, env, timeoutMs: 60_000 });
  const report = JSON.parse(result.stdout) as { prompts: Array<{ path: string; verdict: string; base?: { source?: string; rows: number } }> };
  expect(report.prompts.map((p) => [p.path, p.verdict, p.base?.source, p.base?.rows])).toEqual([['prompts/alpha.prompt.mdx', 'regressed', 'store', 6]]);
  // The head's six rows only: the base's came from the store.
  expect(server.requests.length - before).toBe(6);
  expect(result.stderr.split('\n')[0]).toBe('ci: 1 prompt; estimated live model calls: 6 (cached answers are free)');
}, 120_000);

test("ci's head run streams to the team store (completed, rows matching its record), and the next job's base is found there", async () => {
  const url = await db.createDatabase('ci_head');
  const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test', AGENTMARK_STORE_URL: url };
  const storage = await PgStorage.connect(url, { migrate: true });
  try {
    // A job on main: base and head are one commit, so only the head runs (unchanged).
    const onMain = join(jobs.dir, 'main-ci');
    execFileSync('git', ['clone', '-q', '--branch', 'main', repo.dir, onMain]);
    const mainJob = await runCli(['ci', 'prompts/alpha.prompt.mdx', '--format', 'json'], { cwd: onMain, env, timeoutMs: 60_000 });
    expect(mainJob.stderr).not.toContain('warning');
    const mainReport = JSON.parse(mainJob.stdout) as { prompts: Array<{ verdict: string; head?: { runId: string } }> };
    expect(mainReport.prompts.map((p) => p.verdict)).toEqual(['unchanged']);
    const headId = mainReport.prompts[0]?.head?.runId as string;
    const mainCommit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: onMain, encoding: 'utf8' }).trim();
    expect(await storage.getRun(headId)).toMatchObject({ id: headId, status: 'completed', integrity: { rows: 6 }, prompt: { path: 'prompts/alpha.prompt.mdx' }, git: { commit: mainCommit, dirty: false } });
    expect(await storage.rowCount(headId)).toBe(6);
    await storage.checkRun(headId);

    // The next job, on a branch off main, in a folder with no files in common: its base is that run.
    const job = join(jobs.dir, 'feature-ci');
    execFileSync('git', ['clone', '-q', '--branch', 'feature', repo.dir, job]);
    const before = server.requests.length;
    const result = await runCli(['ci', 'prompts/alpha.prompt.mdx', '--format', 'json'], { cwd: job, env, timeoutMs: 60_000 });
    const report = JSON.parse(result.stdout) as { prompts: Array<{ verdict: string; base?: { runId: string; source?: string } }> };
    expect(report.prompts.map((p) => [p.verdict, p.base?.source, p.base?.runId])).toEqual([['regressed', 'store', headId]]);
    expect(server.requests.length - before).toBe(6);
  } finally {
    await storage.close();
  }
}, 120_000);
