import { expect, test } from 'vitest';
import type { CliProject } from '../cli/cli-project.js';
import { usePostgresStore } from '../helpers/store-test.js';
import { useEchoClones } from './echo-clones.js';

const db = usePostgresStore('store_only_refs');
const clones = useEchoClones();
const { clone } = clones;

/** A clone on main with one run of the echo prompt made without a store. */
async function cloneWithARun(): Promise<CliProject> {
  const project = await clone();
  expect((await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet'], { server: clones.server })).code).toBe(1);
  return project;
}

const SET_STORE = 'set AGENTMARK_STORE_URL=postgres://user:password@host:5432/db (in the environment or .env), or "store" in agentmark.json';

test('branch: and commit: without a team store: exit 2 saying they need one, naming the @<ref> for this clone', async () => {
  const project = await cloneWithARun();
  const byBranch = await project.run(['compare', 'branch:main', 'latest']);
  expect(byBranch.stderr).toBe(
    'error: "branch:main" names a run in a team store by its branch, and this project has none: its runs are in .agentmark/ only\n' +
      `  hint: for this clone's runs use \`@main\` (the newest finished run at the commit git resolves it to); or ${SET_STORE}\n`,
  );
  expect(byBranch.code).toBe(2);
  const byCommit = await project.run(['rerun', 'commit:abc123']);
  expect(byCommit.stderr).toBe(
    'error: "commit:abc123" names a run in a team store by its commit, and this project has none: its runs are in .agentmark/ only\n' +
      `  hint: for this clone's runs use \`@abc123\` (the newest finished run at the commit git resolves it to); or ${SET_STORE}\n`,
  );
  expect(byCommit.code).toBe(2);
}, 60_000);

test('with a team store, branch: and commit: find runs there; one the store lacks is its error, not this clone’s', async () => {
  const project = await cloneWithARun();
  const env = { AGENTMARK_STORE_URL: db.url };
  const [id] = await project.runIds();
  expect((await project.run(['runs', 'push', id as string], { env })).code).toBe(0);
  const commit = (await db.storage.getRun(id as string))?.git?.commit as string;
  const found = await project.run(['compare', 'branch:main', `commit:${commit.slice(0, 8)}`, '--format', 'json'], { env });
  expect(found.stderr).toBe('');
  const result = JSON.parse(found.stdout) as { base: { id: string }; head: { id: string } };
  expect([result.base.id, result.head.id]).toEqual([id, id]);

  const missing = await project.run(['runs', 'show', 'branch:nowhere'], { env });
  expect(missing.stderr).toContain('error: branch:nowhere: no completed run on branch nowhere in postgres://agentmark:***@');
  expect(missing.stderr).not.toContain('this project has none');
  expect(missing.code).toBe(2);
}, 60_000);

test('the store down: a branch: reference is the store’s unreachable error, exit 2', async () => {
  const project = await cloneWithARun();
  const down = await project.run(['compare', 'branch:main', 'latest'], { env: { AGENTMARK_STORE_URL: 'postgres://agentmark:pw@127.0.0.1:1/x' } });
  expect(down.stderr).toContain('error: postgres://agentmark:***@127.0.0.1:1/x: run "branch:main" is not in this clone, and the team store cannot be reached to look for it');
  expect(down.stderr).not.toContain(':pw@');
  expect(down.code).toBe(2);
}, 60_000);

test('help texts name branch: and commit: beside @<git-ref>', async () => {
  const project = await cloneWithARun();
  for (const command of [['compare'], ['rerun'], ['annotate'], ['agreement'], ['view'], ['runs', 'show']]) {
    const help = await project.run([...command, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout, command.join(' ')).toContain('branch:<name>');
    expect(help.stdout, command.join(' ')).toContain('commit:<sha>');
  }
  const runs = await project.run(['runs', '--help']);
  expect(runs.stdout).toContain('with a team store also `branch:<name>`\nor `commit:<sha>`');
  const experiment = await project.run(['run-experiment', '--help']);
  expect(experiment.stdout).toContain('with a team store also branch:<name>, commit:<sha>');
}, 60_000);
