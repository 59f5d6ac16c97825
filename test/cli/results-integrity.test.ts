import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

// Twelve words echoed back, each passing its eval.
const WORDS = ['ant', 'bee', 'cat', 'dog', 'eel', 'fox', 'gnu', 'hen', 'ibis', 'jay', 'kiwi', 'lark'];
const dataset = `${WORDS.map((word) => JSON.stringify({ input: { word }, expected_output: word })).join('\n')}\n`;

let server: OpenAIServer;
let project: CliProject;
let whole: string;
let shards: string[];
const experiment = (args: string[]) => project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--no-cache', '--format', 'jsonl', '-o', 'out.jsonl', ...args], { server });
const runPath = (id: string, file = '') => join(project.dir, '.agentmark', 'runs', id, file);

/** A copy of run `id` under `name/` in the project, its results file changed by `edit`. */
async function damagedCopy(id: string, name: string, edit: (text: string) => string): Promise<string> {
  await rm(join(project.dir, name), { recursive: true, force: true });
  await cp(runPath(id), join(project.dir, name), { recursive: true });
  const path = join(project.dir, name, 'results.jsonl');
  await writeFile(path, edit(await readFile(path, 'utf8')));
  return name;
}
const lines = (text: string) => text.split('\n').filter((line) => line !== '');

beforeAll(async () => {
  server = await startOpenAIServer();
  project = await cliProject({ 'datasets/words.jsonl': dataset });
  expect((await experiment([])).code).toBe(0);
  whole = (await project.runIds())[0] as string;
  for (const shard of ['1/3', '2/3', '3/3']) expect((await experiment(['--shard', shard])).code).toBe(0);
  shards = (await project.runIds()).filter((id) => id !== whole);
}, 60_000);
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

describe('a finished run records what its results file holds', () => {
  it('its row count and the sha256 of its lines, in the manifest', async () => {
    const manifest = JSON.parse(await project.read(`.agentmark/runs/${whole}/manifest.json`)) as { integrity: unknown };
    const { createHash } = await import('node:crypto');
    const text = await readFile(runPath(whole, 'results.jsonl'));
    expect(manifest.integrity).toEqual({ rows: 12, sha256: createHash('sha256').update(text).digest('hex') });
  });

  it('a run stored before the record existed still loads (nothing to check it against)', async () => {
    const old = await damagedCopy(whole, 'old-run', (text) => text);
    const manifestPath = join(project.dir, old, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, unknown>;
    delete manifest.integrity;
    await writeFile(manifestPath, JSON.stringify(manifest));
    const shown = await project.run(['runs', 'show', old, '--format', 'jsonl']);
    expect(shown.code).toBe(0);
    expect(lines(shown.stdout)).toHaveLength(12);
  });
});

describe('merge checks each shard against its manifest', () => {
  const s2 = () => shards[1] as string;
  const rowsOf = async (id: string) => lines(await readFile(runPath(id, 'results.jsonl'), 'utf8')).length;

  it.each([
    ['emptied', (_text: string) => '', (n: number) => `found 0`],
    ['short by a whole line', (text: string) => `${lines(text).slice(1).join('\n')}\n`, (n: number) => `found ${n - 1}`],
  ])('a shard whose results file was %s: exit 2 naming the file, the rows expected and found; nothing merged', async (_what, edit, found) => {
    const n = await rowsOf(s2());
    const copy = await damagedCopy(s2(), 's2-damaged', edit);
    const before = await project.runIds();
    for (const extra of [[], ['--allow-partial']]) {
      const result = await project.run(['merge', shards[0] as string, copy, shards[2] as string, ...extra]);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `error: ${join(copy, 'results.jsonl')}: run ${s2()}: expected ${n} result rows (as its manifest records), ${found(n)}\n` +
          '  hint: the results file was truncated, replaced or damaged after the run ended; rerun the run, or restore the file\n',
      );
      expect(result.code).toBe(2);
    }
    expect(await project.runIds()).toEqual(before);
  });

  it('a shard with a missing results file: exit 2', async () => {
    const copy = await damagedCopy(s2(), 's2-missing', (text) => text);
    await rm(join(project.dir, copy, 'results.jsonl'));
    const result = await project.run(['merge', shards[0] as string, copy, shards[2] as string]);
    expect(result.stderr).toContain(`: run ${s2()}: expected ${await rowsOf(s2())} result rows (as its manifest records), found none: the file is missing\n`);
    expect(result.code).toBe(2);
  });

  it('a line repeated inside a shard: exit 2 (a row key seen twice), never 13 rows', async () => {
    const copy = await damagedCopy(s2(), 's2-twice', (text) => `${text}${lines(text)[0]}\n`);
    // The count no longer matches either; with the manifest's record taken away, the repeated key still tells.
    const manifestPath = join(project.dir, copy, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, unknown>;
    const counted = await project.run(['merge', shards[0] as string, copy, shards[2] as string]);
    expect(counted.code).toBe(2);
    expect(counted.stderr).toMatch(/expected \d+ result rows \(as its manifest records\), found \d+\n/);
    delete manifest.integrity;
    await writeFile(manifestPath, JSON.stringify(manifest));
    const result = await project.run(['merge', shards[0] as string, copy, shards[2] as string]);
    const first = JSON.parse(lines(await readFile(runPath(s2(), 'results.jsonl'), 'utf8'))[0] as string) as { index: number };
    expect(result.stderr).toBe(
      `error: ${join(copy, 'results.jsonl')}: run ${s2()}: row ${first.index} appears twice in its results\n` +
        '  hint: the results file was edited or two processes wrote the run; remove the extra line or rerun the run\n',
    );
    expect(result.code).toBe(2);
  });

  it('a line changed in place (same count): exit 2', async () => {
    const copy = await damagedCopy(s2(), 's2-edited', (text) => text.replace('"ant"', '"ANT"').replace('"bee"', '"BEE"').replace('"cat"', '"CAT"'));
    const result = await project.run(['merge', shards[0] as string, copy, shards[2] as string]);
    expect(result.stderr).toContain(`run ${s2()}: its results do not match its manifest`);
    expect(result.code).toBe(2);
  });

  it('two shards whose manifests swapped their shard numbers (results intact): exit 2 naming the first row in dataset order that is in the wrong shard; nothing merged', async () => {
    // The shard of every row is checked on a second thread while the rows are merged: the
    // integrity records match, so only that check can tell.
    const [s1, s2id] = [shards[0] as string, shards[1] as string];
    const swapped = [await damagedCopy(s1, 's1-as-2', (text) => text), await damagedCopy(s2id, 's2-as-1', (text) => text)];
    for (const [name, index] of [[swapped[0] as string, 2], [swapped[1] as string, 1]] as const) {
      const manifestPath = join(project.dir, name, 'manifest.json');
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { shard: { index: number } };
      await writeFile(manifestPath, JSON.stringify({ ...manifest, shard: { ...manifest.shard, index } }));
    }
    const indexes = async (id: string) => lines(await readFile(runPath(id, 'results.jsonl'), 'utf8')).map((line) => (JSON.parse(line) as { index: number }).index);
    const [in1, in2] = [await indexes(s1), await indexes(s2id)];
    const first = Math.min(...in1, ...in2);
    const [holder, claims, belongs] = in1.includes(first) ? [s1, 2, 1] : [s2id, 1, 2];
    const before = await project.runIds();
    const result = await project.run(['merge', ...swapped, shards[2] as string]);
    expect(result.stderr).toBe(
      `error: run ${holder} (shard ${claims}/3) holds row ${first}, which belongs to shard ${belongs}/3\n` +
        '  hint: its results file does not match its manifest (edited, or copied from another run); rerun that shard\n',
    );
    expect(result.code).toBe(2);
    expect(await project.runIds()).toEqual(before);
  });

  it('--allow-partial with a missing shard: the merged run is `partial`, and `latest` never picks it', async () => {
    const merged = await project.run(['merge', shards[0] as string, shards[2] as string, '--allow-partial']);
    expect(merged.code).toBe(0);
    const id = (await project.runIds()).at(-1) as string;
    const manifest = JSON.parse(await readFile(runPath(id, 'manifest.json'), 'utf8')) as { status: string; integrity: { rows: number } };
    expect(manifest.status).toBe('partial');
    expect(manifest.integrity.rows).toBe(12 - (await rowsOf(s2())));
    const latest = await project.run(['runs', 'show', 'latest', '--format', 'json']);
    expect((JSON.parse(latest.stdout) as { run: { runId: string } }).run.runId).not.toBe(id);
    await rm(runPath(id), { recursive: true });
  });
});

describe('compare checks the runs it reads', () => {
  it('a head whose results file was deleted: exit 2, not "0 paired"', async () => {
    const head = await damagedCopy(whole, 'head-missing', (text) => text);
    await rm(join(project.dir, head, 'results.jsonl'));
    const result = await project.run(['compare', whole, head, '--fail-on-regression']);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: ${join(head, 'results.jsonl')}: run ${whole}: expected 12 result rows (as its manifest records), found none: the file is missing\n` +
        '  hint: the results file was truncated, replaced or damaged after the run ended; rerun the run, or restore the file\n',
    );
    expect(result.code).toBe(2);
  });

  it('a finished head whose last line was cut mid-line: exit 2, not 11 rows', async () => {
    const head = await damagedCopy(whole, 'head-torn', (text) => text.slice(0, -20));
    const result = await project.run(['compare', whole, head, '--fail-on-regression']);
    expect(result.stderr).toContain(`run ${whole}: expected 12 result rows (as its manifest records), found 11, and its last line is cut off\n`);
    expect(result.code).toBe(2);
    // runs show reads through the same check.
    const shown = await project.run(['runs', 'show', head, '--format', 'jsonl']);
    expect(shown.stdout).toBe('');
    expect(shown.stderr).toContain('found 11, and its last line is cut off\n');
    expect(shown.code).toBe(2);
  });

  it('a run killed mid-write (still `running`, no live owner) with a torn last line: "interrupted; --resume it"', async () => {
    const head = await damagedCopy(whole, 'head-killed', (text) => text.slice(0, -20));
    const manifestPath = join(project.dir, head, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, unknown>;
    for (const key of ['integrity', 'summary', 'endedAt']) delete manifest[key];
    manifest.status = 'running';
    await writeFile(manifestPath, JSON.stringify(manifest));
    const result = await project.run(['compare', whole, head]);
    expect(result.stderr).toBe(
      `error: run ${whole} did not finish (interrupted) and has no summary; \`--resume\` it: agentmark run-experiment prompts/echo.prompt.mdx --resume ${whole}\n` +
        '  hint: the resume keeps the finished rows and runs the rest\n',
    );
    expect(result.code).toBe(2);
    // With the summary the killed run had written before (a resume killed again), the torn line itself tells.
    manifest.summary = (JSON.parse(await project.read(`.agentmark/runs/${whole}/manifest.json`)) as Record<string, unknown>).summary;
    await writeFile(manifestPath, JSON.stringify(manifest));
    const torn = await project.run(['compare', whole, head]);
    expect(torn.stderr).toBe(
      `error: ${join(head, 'results.jsonl')}: run ${whole} was interrupted (its last result line is cut off); \`--resume\` it: ` +
        `agentmark run-experiment prompts/echo.prompt.mdx --resume ${whole}\n` +
        '  hint: the resume keeps the finished rows and runs the rest\n',
    );
    expect(torn.code).toBe(2);
  });
});
