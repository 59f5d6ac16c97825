import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
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
