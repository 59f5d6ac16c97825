/**
 * A merge killed half-way leaves nothing a reader takes for a run: the merged run is written
 * under a hidden name and renamed to its own only when complete. Before, the half-written run
 * was listed `interrupted` with a `--resume` command, and resuming it called the model for every
 * row the shards had already answered.
 */
import type { ChildProcess } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { runCli } from '../helpers/run-cli.js';

const ROWS = 20_000;
// Pre-generated outputs: the shards run with no model at all, in a few seconds.
const dataset = `${Array.from({ length: ROWS }, (_, i) => JSON.stringify({ input: { word: `w${i}` }, expected_output: `w${i}`, output: `w${i}` })).join('\n')}\n`;

let project: CliProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

interface ListedRun {
  id: string;
  status: string;
}

describe('an interrupted merge', () => {
  it('killed as soon as it starts writing, it leaves no run in `runs` and none to --resume; the shards are as they were', async () => {
    project = await cliProject({ 'datasets/words.jsonl': dataset });
    const made = project;
    for (const shard of ['1/2', '2/2']) expect((await made.run(['run-experiment', 'prompts/echo.prompt.mdx', '--shard', shard, '-q', '-o', '/dev/null'], { timeoutMs: 120_000 })).code).toBe(0);
    const shards = await made.runIds();
    expect(shards).toHaveLength(2);
    const runsDir = join(made.dir, '.agentmark', 'runs');

    let child: ChildProcess | undefined;
    const merging = runCli(['merge', ...shards], { cwd: made.dir, timeoutMs: 120_000, onSpawn: (spawned) => (child = spawned) });
    // Once the merge has written rows (the first 1 MB chunk), in a folder of whatever name.
    const rowsWritten = async (): Promise<number> => {
      let bytes = 0;
      for (const name of await readdir(runsDir)) {
        if (shards.includes(name)) continue;
        bytes += await stat(join(runsDir, name, 'results.jsonl')).then((found) => found.size, () => 0);
      }
      return bytes;
    };
    await expect.poll(rowsWritten, { timeout: 60_000, interval: 1 }).toBeGreaterThan(0);
    child?.kill('SIGKILL');
    expect((await merging).signal).toBe('SIGKILL');

    const listed = await made.run(['runs', '--format', 'json']);
    expect(listed.code).toBe(0);
    const runs = JSON.parse(listed.stdout) as ListedRun[];
    // Killed before it finished (the usual case), the merge is not there at all; had it
    // finished first, it would be a complete run. Never one left half-written.
    const others = runs.filter((run) => !shards.includes(run.id));
    for (const run of others) {
      expect(run.status).toBe('completed');
      expect(await made.results(run.id)).toHaveLength(ROWS);
    }
    expect(runs.filter((run) => shards.includes(run.id)).map((run) => run.status)).toEqual(['completed', 'completed']);
    // Nothing says to resume a merge.
    const shown = await made.run(['runs']);
    expect(shown.stdout).not.toContain('interrupted');
  }, 240_000);
});
