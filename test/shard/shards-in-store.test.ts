import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import type { RunManifest } from '../../src/store/index.js';
import { startOpenAIServer, echoResponder, type OpenAIServer } from '../helpers/openai-server.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { commitAllOnMain } from '../helpers/git-repo.js';

let db: TestPostgres;
let made = 0;
let url: string;
let storage: PgStorage;
let server: OpenAIServer;
const projects: CliProject[] = [];

beforeAll(async () => {
  db = await startPostgres();
  server = await startOpenAIServer({ handler: echoResponder });
}, 60_000);
afterAll(async () => {
  await server.close();
  await db.stop();
});
beforeEach(async () => {
  made += 1;
  url = await db.createDatabase(`shards_${made}`);
  storage = await PgStorage.connect(url, { migrate: true });
});
afterEach(async () => {
  await storage.close();
  for (const project of projects.splice(0)) await project.cleanup();
});

/**
 * A clone of the echo project on its own machine: its own folder and git repository on branch main,
 * nothing shared. Every clone's commit has the same author, date and tree, so the same sha, as
 * clones of one repository have.
 */
async function clone(): Promise<CliProject> {
  const project = await cliProject();
  projects.push(project);
  commitAllOnMain(project.dir, '2026-12-01T12:00:00Z');
  return project;
}

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ AGENTMARK_STORE_URL: url, ...extra });
const shard = (project: CliProject, spec: string, extra: NodeJS.ProcessEnv = {}, args: string[] = []) =>
  project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--shard', spec, ...args], { server, env: env(extra) });
const storeLine = (stderr: string): string | undefined => stderr.split('\n').find((line) => line.startsWith('store: ') || line.includes('was not merged'));
const mergedRuns = async (): Promise<RunManifest[]> => (await storage.listRuns()).filter((m) => m.merged !== undefined);

/** Every row of the echo dataset once, in dataset order: what a one-process run holds. */
async function expectWhole(id: string): Promise<void> {
  const rows: number[] = [];
  for await (const { row } of storage.readRows(id)) rows.push(row.index);
  expect(rows).toEqual([0, 1, 2]);
  await storage.checkRun(id);
}

test('three shards in three clones: the last to finish merges the group in the store, and a fourth clone compares @main with latest on it', async () => {
  const machines = [await clone(), await clone(), await clone()];
  const group = { AGENTMARK_SHARD_GROUP: 'gha-7001' };
  const first = await shard(machines[0] as CliProject, '1/3', group);
  expect(storeLine(first.stderr)).toBe('store: shard 1/3 of group gha-7001 stored; 1 of 3 shards done (the last to finish merges them)');
  const second = await shard(machines[1] as CliProject, '2/3', group);
  expect(storeLine(second.stderr)).toBe('store: shard 2/3 of group gha-7001 stored; 2 of 3 shards done (the last to finish merges them)');
  expect(await mergedRuns()).toEqual([]);
  const third = await shard(machines[2] as CliProject, '3/3', group);
  const [merged] = await mergedRuns();
  expect(merged).toMatchObject({ status: 'completed', integrity: { rows: 3 }, git: { branch: 'main' }, merged: { count: 3, missing: [], group: 'gha-7001' } });
  expect(storeLine(third.stderr)).toBe(`store: every shard of group gha-7001 is done: merged 3 shards (3 rows) into run ${merged?.id} in the team store`);
  expect(merged?.merged?.shards.map((s) => s.index)).toEqual([1, 2, 3]);
  expect(merged?.merged?.shards.reduce((sum, s) => sum + s.rows, 0)).toBe(3);
  await expectWhole(merged?.id as string);
  // The shards' own exit codes are their own gates: only the one with the GAMMA row fails.
  // Rows go to shards by a hash of their content: shard 1/3 of the echo's three rows has none (the
  // "no rows were run" gate), 2/3 has one that passes, 3/3 the other two, GAMMA's failing among them.
  expect([first.code, second.code, third.code]).toEqual([1, 0, 1]);
  // The merged run is also the last shard's machine's own, like any run.
  expect(await (machines[2] as CliProject).runIds()).toContain(merged?.id);

  const laptop = await clone();
  const compared = await laptop.run(['compare', '@main', 'latest', '--format', 'json'], { env: env() });
  expect(compared.stderr).toBe('');
  expect(compared.code).toBe(0);
  const result = JSON.parse(compared.stdout) as { base: { id: string }; head: { id: string } };
  expect([result.base.id, result.head.id]).toEqual([merged?.id, merged?.id]);
}, 120_000);

test('shards pushed from two clones merge with `merge --store <group>`; merging again gives back the one merged run', async () => {
  const machines = [await clone(), await clone()];
  // Run without the store (its group named), then pushed: nothing merges until asked.
  for (const [i, machine] of machines.entries()) {
    const run = await machine.run(['run-experiment', 'prompts/echo.prompt.mdx', '--shard', `${i + 1}/2`, '--shard-group', 'nightly-12'], { server });
    expect(run.code).toBeLessThan(2);
    expect(storeLine(run.stderr)).toBeUndefined();
    const pushed = await machine.run(['runs', 'push', 'latest'], { env: env() });
    expect(pushed.code).toBe(0);
  }
  expect((await storage.listShards('nightly-12')).map((m) => m.status)).toEqual(['completed', 'completed']);
  const ci = await clone();
  // COLUMNS wide enough for whole lines (piped, merge fits 100 columns and the id would wrap).
  const merged = await ci.run(['merge', '--store', 'nightly-12'], { env: { ...env(), COLUMNS: '300' } });
  // The echo fails the GAMMA row: the merged run's gate fails, as merge's does.
  expect(merged.code).toBe(1);
  const [run] = await mergedRuns();
  expect(run).toMatchObject({ status: 'completed', integrity: { rows: 3 }, merged: { count: 2, group: 'nightly-12' } });
  await expectWhole(run?.id as string);
  const lines = merged.stdout.split('\n');
  expect(lines[0]).toBe(`Merged 2 of 2 shards of prompts/echo.prompt.mdx · openai/gpt-4o-mini into run ${run?.id}`);
  expect(lines[1]).toBe("  stored in the team store as shard group nightly-12's merged run");
  expect(await ci.runIds()).toEqual([...(await storage.listShards('nightly-12')).map((m) => m.id).sort(), run?.id].sort());

  const again = await (await clone()).run(['merge', '--store', 'nightly-12'], { env: { ...env(), COLUMNS: '300' } });
  expect(again.code).toBe(1);
  expect(again.stdout.split('\n')[1]).toBe(`  shard group nightly-12 was merged before: run ${run?.id}`);
  expect((await mergedRuns()).map((m) => m.id)).toEqual([run?.id]);
}, 120_000);

test('a missing shard is exit 2 naming it; a shard damaged in the store is refused with its integrity error; nothing is stored', async () => {
  const group = { AGENTMARK_SHARD_GROUP: 'k8s-job-abc' };
  await shard(await clone(), '1/3', group);
  const third = await shard(await clone(), '3/3', group);
  expect(storeLine(third.stderr)).toBe('store: shard 3/3 of group k8s-job-abc stored; 2 of 3 shards done (the last to finish merges them)');
  const ci = await clone();
  const missing = await ci.run(['merge', '--store', 'k8s-job-abc'], { env: env() });
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain('shard 2/3 is missing');
  const unknown = await ci.run(['merge', '--store', 'k8s-job-abd'], { env: env() });
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('no shard runs of group "k8s-job-abd"');
  const bad = await ci.run(['merge', '--store', 'no good'], { env: env() });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--store "no good": a shard group is');

  expect(await mergedRuns()).toEqual([]);

  // A group whose shard 3/3 was edited in the store after it completed: its last shard cannot merge it.
  const xyz = { AGENTMARK_SHARD_GROUP: 'k8s-job-xyz' };
  for (const spec of ['2/3', '3/3']) await shard(await clone(), spec, xyz);
  const damaged = (await storage.listShards('k8s-job-xyz')).find((m) => m.shard?.index === 3) as RunManifest;
  await storage.pool.query("UPDATE agentmark_rows SET line = replace(line, '\"output\":\"', '\"output\":\"edited ') WHERE run_id = $1 AND seq = 0", [damaged.id]);
  const last = await shard(await clone(), '1/3', xyz);
  expect(storeLine(last.stderr)).toMatch(/^warning: shard group k8s-job-xyz was not merged \(.+\); merge it with `agentmark merge --store k8s-job-xyz`$/);
  const refused = await ci.run(['merge', '--store', 'k8s-job-xyz'], { env: env() });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain(damaged.id);
  expect(refused.stderr).toMatch(/STORE_RESULTS_MISMATCH|do not match|does not match/);
  expect(await mergedRuns()).toEqual([]);
}, 120_000);

test('the two last shards finishing together: the group lock lets one merge, the other finds its run; one merged run', async () => {
  const group = { AGENTMARK_SHARD_GROUP: 'race-1' };
  await shard(await clone(), '1/3', group);
  // Shards 2/3 and 3/3 ask for their three rows at once; each is answered only when all three have arrived.
  let arrived = 0;
  let release: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (release = resolve));
  const racing = await startOpenAIServer({
    handler: async (request) => {
      arrived += 1;
      if (arrived === 3) release();
      await all;
      return echoResponder(request);
    },
  });
  try {
    const [a, b] = [await clone(), await clone()];
    const results = await Promise.all(['2/3', '3/3'].map((spec, i) => ((i === 0 ? a : b) as CliProject).run(['run-experiment', 'prompts/echo.prompt.mdx', '--shard', spec], { server: racing, env: env(group) })));
    const runs = await mergedRuns();
    if (runs.length !== 1) console.log(results.map((r) => [r.code, r.stderr]));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'completed', integrity: { rows: 3 } });
    const lines = results.map((result) => storeLine(result.stderr));
    expect(lines.filter((line) => line === `store: every shard of group race-1 is done: merged 3 shards (3 rows) into run ${runs[0]?.id} in the team store`)).toHaveLength(1);
    const other = lines.find((line) => !(line ?? '').includes('merged 3 shards'));
    expect([`store: shard group race-1 is merged: run ${runs[0]?.id}`, expect.stringMatching(/^store: shard [23]\/3 of group race-1 stored; 2 of 3 shards done/)]).toContainEqual(other);
  } finally {
    await racing.close();
  }
}, 120_000);

test('without a group named, the shards of one command at one commit meet in the group derived from them', async () => {
  const [a, b] = [await clone(), await clone()];
  const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: a.dir, encoding: 'utf8' }).trim();
  await shard(a, '1/2');
  const last = await shard(b, '2/2');
  const [run] = await mergedRuns();
  const group = run?.merged?.group as string;
  expect(group).toMatch(new RegExp(`^${commit.slice(0, 12)}-[0-9a-f]{12}$`));
  expect(storeLine(last.stderr)).toBe(`store: every shard of group ${group} is done: merged 2 shards (3 rows) into run ${run?.id} in the team store`);
  expect((await storage.listShards(group)).map((m) => m.shard?.index).sort()).toEqual([1, 2]);
}, 120_000);

test('the same shard twice in a group, or shards of different prompt texts, are refused as merge refuses local shards', async () => {
  const dup = { AGENTMARK_SHARD_GROUP: 'dup-1' };
  await shard(await clone(), '2/3', dup);
  await shard(await clone(), '2/3', dup);
  const ci = await clone();
  const twice = await ci.run(['merge', '--store', 'dup-1'], { env: env() });
  expect(twice.code).toBe(2);
  expect(twice.stderr).toMatch(/overlapping shards: runs \S+ \(shard 2\/3\) and \S+ \(shard 2\/3\) are the same shard/);

  const edit = { AGENTMARK_SHARD_GROUP: 'edit-1' };
  await shard(await clone(), '1/2', edit);
  const edited = await clone();
  await edited.write('prompts/echo.prompt.mdx', `${await edited.read('prompts/echo.prompt.mdx')}\nOne more line.\n`);
  const last = await shard(edited, '2/2', edit);
  expect(storeLine(last.stderr)).toContain('these runs are not shards of one run: different prompt');
  const refused = await ci.run(['merge', '--store', 'edit-1'], { env: env() });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('these runs are not shards of one run: different prompt');
  expect(await mergedRuns()).toEqual([]);
}, 120_000);

test('--allow-partial stores a partial merged run; the missing shard finishing later replaces it with the whole one', async () => {
  const group = { AGENTMARK_SHARD_GROUP: 'partial-1' };
  for (const spec of ['1/3', '3/3']) await shard(await clone(), spec, group);
  const ci = await clone();
  const partial = await ci.run(['merge', '--store', 'partial-1', '--allow-partial'], { env: env() });
  expect(partial.code).toBe(1);
  expect(partial.stderr).toContain('warning: incomplete: shard 2/3 is missing');
  const [first] = await mergedRuns();
  expect(first).toMatchObject({ status: 'partial', integrity: { rows: 2 }, merged: { missing: [2], group: 'partial-1' } });
  await storage.appendAnnotations(first?.id as string, [{ row: 'r0', index: 0, repeat: 0, outputHash: 'h', eval: 'exact', value: true, reviewer: 'vera', at: '2026-12-02T06:00:00.000Z' }]);
  // Without --allow-partial the group is still refused, and the partial run stays.
  expect((await ci.run(['merge', '--store', 'partial-1'], { env: env() })).code).toBe(2);
  expect((await mergedRuns()).map((m) => m.id)).toEqual([first?.id]);
  const last = await shard(await clone(), '2/3', group);
  const [whole] = await mergedRuns();
  expect(storeLine(last.stderr)).toBe(`store: every shard of group partial-1 is done: merged 3 shards (3 rows) into run ${whole?.id} in the team store`);
  expect(whole).toMatchObject({ status: 'completed', integrity: { rows: 3 }, merged: { missing: [] } });
  expect(await mergedRuns()).toHaveLength(1);
  // The partial run went whole, in one transaction: nothing of it is left behind (its label included).
  const left = async (table: string, column: string): Promise<number> =>
    (await storage.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [first?.id])).rows[0]?.n ?? -1;
  expect([await left('agentmark_runs', 'id'), await left('agentmark_rows', 'run_id'), await left('agentmark_annotations', 'run_id')]).toEqual([0, 0, 0]);
}, 120_000);

test('without a team store, `merge --store <group>` merges the group from the project\'s own .agentmark/runs/, once', async () => {
  const project = await clone();
  for (const spec of ['1/2', '2/2']) {
    const run = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--shard', spec, '--shard-group', 'local-1'], { server });
    expect(storeLine(run.stderr)).toBeUndefined();
  }
  const wide = { env: { COLUMNS: '300' } };
  const merged = await project.run(['merge', '--store', 'local-1'], wide);
  expect(merged.code).toBe(1);
  const id = /into run (\S+)/.exec(merged.stdout)?.[1];
  expect(merged.stdout.split('\n')[1]).toBe("  stored in .agentmark/runs/ (no team store is set) as shard group local-1's merged run");
  const again = await project.run(['merge', '--store', 'local-1'], wide);
  expect(again.stdout.split('\n')[1]).toBe(`  shard group local-1 was merged before: run ${id}`);
  // Two shards and one merged run (the group's lock folder, `.shard-groups/`, is no run).
  expect((await project.runIds()).filter((name) => !name.startsWith('.'))).toHaveLength(3);
  expect(await storage.listRuns()).toEqual([]);
}, 120_000);

test('--shard-group needs --shard, and a group name that is no name is exit 2 saying where it came from', async () => {
  const project = await clone();
  const alone = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--shard-group', 'g1'], { server });
  expect(alone.code).toBe(2);
  expect(alone.stderr).toContain('--shard-group applies to --shard');
  const fromEnv = await shard(project, '1/2', { AGENTMARK_SHARD_GROUP: 'two words' });
  expect(fromEnv.code).toBe(2);
  expect(fromEnv.stderr).toContain('AGENTMARK_SHARD_GROUP "two words": a shard group is 1 to 200 letters, digits and . _ : / -');
  expect(await project.runIds()).toEqual([]);
}, 60_000);
