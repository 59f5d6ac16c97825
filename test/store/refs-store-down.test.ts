import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { startOpenAIServer, echoResponder, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { commitAllOnMain } from '../helpers/git-repo.js';
import { byInstruction, ciRepo, featureBranch } from '../ci/ci-repo.js';

// A team store that is down: port 1 on loopback, where nothing listens (the connection is refused
// at once). Every run here is this clone's own, so each command can answer without the store.
const PASSWORD = "pw'd0wn";
const DOWN = `postgres://agentmark:${encodeURIComponent(PASSWORD)}@127.0.0.1:1/evals`;
const DOWN_LINE = "warning: the team store is not available (cannot reach the store's database at 127.0.0.1:1 (ECONNREFUSED)): run references are looked up in this clone only\n";

let server: OpenAIServer;
const projects: CliProject[] = [];
beforeAll(async () => {
  server = await startOpenAIServer({ handler: echoResponder });
});
afterAll(() => server.close());
afterEach(async () => {
  for (const project of projects.splice(0)) await project.cleanup();
});

/** A clone on main with two runs of the echo prompt made without a store. */
async function cloneWithTwoRuns(): Promise<{ project: CliProject; ids: string[] }> {
  const project = await cliProject();
  projects.push(project);
  commitAllOnMain(project.dir);
  for (let i = 0; i < 2; i += 1) expect((await project.run(['run-experiment', 'prompts/echo.prompt.mdx'], { server })).code).toBe(1);
  return { project, ids: await project.runIds() };
}

const down = { AGENTMARK_STORE_URL: DOWN };
const expectNoPassword = (text: string): void => {
  expect(text).not.toContain(PASSWORD);
  expect(text).not.toContain(encodeURIComponent(PASSWORD));
};

test('the store down: compare, runs show, agreement and dataset from-run answer from this clone with one warning', async () => {
  const { project, ids } = await cloneWithTwoRuns();
  const compared = await project.run(['compare', 'latest~1', 'latest', '--format', 'json'], { env: down });
  expect(compared.stderr).toBe(DOWN_LINE);
  expect(compared.code).toBe(0);
  const result = JSON.parse(compared.stdout) as { base: { id: string }; head: { id: string } };
  expect([result.base.id, result.head.id]).toEqual(ids);

  const shown = await project.run(['runs', 'show', 'latest', '--format', 'json'], { env: down });
  expect(shown.stderr).toBe(DOWN_LINE);
  expect((JSON.parse(shown.stdout) as { run: { runId: string } }).run.runId).toBe(ids[1]);

  const agreement = await project.run(['agreement', '@main'], { env: down });
  expect(agreement.stderr).toBe(DOWN_LINE);
  expect(agreement.code).toBe(0);
  expect(agreement.stdout).toContain(`Agreement of run ${ids[1]}`);

  const fromRun = await project.run(['dataset', 'from-run', ids[0] as string, '-o', 'datasets/again.jsonl'], { env: down });
  expect(fromRun.stderr).toBe(`${DOWN_LINE}Wrote 3 rows to datasets/again.jsonl from run ${ids[0]}\n`);
  expect(fromRun.code).toBe(0);
  expect((await readFile(join(project.dir, 'datasets', 'again.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(3);
  expectNoPassword(compared.stderr + shown.stderr + agreement.stderr + fromRun.stderr);
}, 120_000);

test('the store down: run-experiment --baseline latest and rerun go on locally against this clone’s runs', async () => {
  const { project, ids } = await cloneWithTwoRuns();
  const baselined = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--baseline', 'latest', '--format', 'json'], { server, env: down });
  expect(baselined.stderr.split('\n').filter((line) => line.startsWith('warning: the team store is not available'))).toEqual([
    DOWN_LINE.trimEnd(),
    expect.stringContaining('the run goes on locally; upload it later with `agentmark runs push'),
  ]);
  expect((JSON.parse(baselined.stdout) as { comparison: { base: { id: string } } }).comparison.base.id).toBe(ids[1]);
  expect(await project.runIds()).toHaveLength(3);

  const rerun = await project.run(['rerun', ids[0] as string, '--quiet'], { server, env: down });
  expect(rerun.stderr.split('\n').filter((line) => line.includes('team store'))[0]).toBe(DOWN_LINE.trimEnd());
  expect(await project.runIds()).toHaveLength(4);
  expectNoPassword(baselined.stderr + rerun.stderr);
}, 120_000);

test('the store down: a run this clone does not have is exit 2 naming the store’s host and port, never its password', async () => {
  const { project } = await cloneWithTwoRuns();
  const missing = await project.run(['compare', '20261130T031500Z-gone', 'latest'], { env: down });
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain(`error: ${DOWN.replace(encodeURIComponent(PASSWORD), '***')}: run "20261130T031500Z-gone" is not in this clone, and the team store cannot be reached to look for it: cannot reach the store's database at 127.0.0.1:1 (ECONNREFUSED)`);
  expectNoPassword(missing.stderr);
}, 120_000);

test('the store down: ci takes its base from a worktree of the base commit, with one warning for the base lookup', async () => {
  const shouting = await startOpenAIServer({ handler: byInstruction });
  const repo = await ciRepo(shouting);
  try {
    await featureBranch(repo);
    const result = await repo.run(['prompts/alpha.prompt.mdx', '--format', 'json'], { env: down });
    const report = JSON.parse(result.stdout) as { prompts: Array<{ path: string; verdict: string; base?: { source?: string } }> };
    expect(report.prompts.map((p) => [p.path, p.verdict, p.base?.source])).toEqual([['prompts/alpha.prompt.mdx', 'regressed', 'worktree']]);
    expect(result.code).toBe(1);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning: the team store is not available'));
    expect(warnings[0]).toBe("warning: the team store is not available (cannot reach the store's database at 127.0.0.1:1 (ECONNREFUSED)): base runs are looked for in this clone only");
    expect(warnings.filter((line) => line.includes('base runs'))).toHaveLength(1);
    expectNoPassword(result.stderr);
  } finally {
    await repo.cleanup();
    await shouting.close();
  }
}, 180_000);
