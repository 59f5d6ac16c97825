import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startViewServer } from '../../src/view/index.js';
import { RunCatalog } from '../../src/view/run-catalog.js';
import { RunIndex } from '../../src/view/run-index.js';
import { fixture, type Fixture } from '../experiment/setup.js';
import { wordsDataset } from '../experiment/setup.js';

// Row 2 and 4 fail the `exact` eval: their expected output is not what the echo model says.
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
const expected = (i: number) => (i === 2 || i === 4 ? { expected_output: 'nope' } : {});

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

/** A finished run of six rows made by the runner, and its folder. */
async function finishedRun(): Promise<{ id: string; dir: string; results: string }> {
  fx = await fixture({ 'datasets/words.jsonl': wordsDataset(WORDS, expected) });
  const outcome = await fx.run({ concurrency: 3 });
  const id = outcome.runId;
  const dir = join(fx.dir, '.agentmark', 'runs', id);
  return { id, dir, results: join(dir, 'results.jsonl') };
}

/** The run as the viewer opens it (a fresh catalog: nothing held from an earlier open). */
async function open(id: string): Promise<RunIndex> {
  const catalog = new RunCatalog((fx as Fixture).dir);
  const manifest = await catalog.manifest(id);
  if (!manifest) throw new Error(`no run ${id}`);
  return catalog.index(id, manifest);
}

/** The columns read the old way: every line of the results file parsed. */
async function scanned(results: string, evalNames: string[]): Promise<RunIndex> {
  const index = new RunIndex(results, evalNames);
  await index.refresh();
  return index;
}

describe('a finished run opens from the view index written with its rows', () => {
  it('the index holds the same columns and line places as a scan of the results file', async () => {
    const { id, results } = await finishedRun();
    const index = await open(id);
    expect(index.fromViewIndex).toBe(true);
    const scan = await scanned(results, ['exact']);
    expect(index.columns).toEqual(scan.columns);
    expect(index.starts).toEqual(scan.starts);
    expect(index.lengths).toEqual(scan.lengths);
    expect(index.count).toBe(6);
    expect(index.columns.verdicts.split('').filter((v) => v === 'F')).toHaveLength(2);
  });

  it('the index does not stand for a results file edited in place: same-length changes are refused, with the index or without', async () => {
    const { id, dir, results } = await finishedRun();
    const lines = (await readFile(results, 'utf8')).split('\n').slice(0, -1);
    // The first line keeps its length with its output changed: what the index alone cannot see.
    const first = lines[0] as string;
    const changed = first.replace(/"output":"(\w)/, (_m, c: string) => `"output":"${c === 'Q' ? 'R' : 'Q'}`);
    expect(changed).not.toBe(first);
    await writeFile(results, `${[changed, ...lines.slice(1)].join('\n')}\n`);
    const refused = `run ${id}: its results do not match its manifest: 6 rows as recorded, but their content changed`;
    await expect(open(id)).rejects.toThrow(refused);
    await rm(join(dir, 'view-index'), { recursive: true });
    await expect(open(id)).rejects.toThrow(refused);
  });

  it('served by `agentmark view`\'s API: the index route lists the rows from the index, the rows route reads the file', async () => {
    const { id, results } = await finishedRun();
    const before = await scanned(results, ['exact']);
    const lines = (await readFile(results, 'utf8')).split('\n').slice(0, -1);
    const server = await startViewServer({ projectRoot: (fx as Fixture).dir, port: 0 });
    try {
      const index = await fetch(`${server.url}api/runs/${id}/index`);
      expect(index.status).toBe(200);
      expect(await index.json()).toEqual(before.columns);
      const rows = await fetch(`${server.url}api/runs/${id}/rows?at=0`);
      expect(((await rows.json()) as { rows: Array<{ row: unknown }> }).rows.map((r) => JSON.stringify(r.row))).toEqual([lines[0]]);
      // Lines of x's the same length: the index still describes them, the check does not pass them.
      await writeFile(results, `${[lines[0], ...lines.slice(1).map((line) => 'x'.repeat(Buffer.byteLength(line)))].join('\n')}\n`);
      const fresh = await startViewServer({ projectRoot: (fx as Fixture).dir, port: 0 });
      try {
        expect((await fetch(`${fresh.url}api/runs/${id}/index`)).status).toBe(409);
      } finally {
        await fresh.close();
      }
    } finally {
      await server.close();
    }
  });

  it('a run written before the index (no view-index folder) is read from its results as before', async () => {
    const { id, dir, results } = await finishedRun();
    await rm(join(dir, 'view-index'), { recursive: true });
    const index = await open(id);
    expect(index.fromViewIndex).toBe(false);
    expect(index.columns).toEqual((await scanned(results, ['exact'])).columns);
  });
});

describe('a stale or damaged view index is not used', () => {
  /** The index's meta, changed by `edit`, and its `index` column replaced by wrong numbers. */
  async function tamper(dir: string, edit: (meta: { results: { bytes: number; sha256: string } }) => void): Promise<void> {
    const path = join(dir, 'view-index', 'meta.json');
    const meta = JSON.parse(await readFile(path, 'utf8')) as { results: { bytes: number; sha256: string } };
    edit(meta);
    await writeFile(path, JSON.stringify(meta));
    await writeFile(join(dir, 'view-index', 'index'), '9,9,9,9,9,9,');
  }

  it.each([
    ['its record of the results is not the manifest\'s (hash)', (meta: { results: { sha256: string } }) => void (meta.results.sha256 = '0'.repeat(64))],
    ['it covers more bytes than the results file has (size)', (meta: { results: { bytes: number } }) => void (meta.results.bytes += 1)],
  ])('%s: the results file is read', async (_name, edit) => {
    const { id, dir, results } = await finishedRun();
    await tamper(dir, edit);
    const index = await open(id);
    expect(index.fromViewIndex).toBe(false);
    expect(index.columns).toEqual((await scanned(results, ['exact'])).columns);
  });

  it('a damaged meta file or a short column: the results file is read', async () => {
    const { id, dir, results } = await finishedRun();
    await writeFile(join(dir, 'view-index', 'flags'), '0,0,');
    expect((await open(id)).fromViewIndex).toBe(false);
    await writeFile(join(dir, 'view-index', 'meta.json'), '{"version":1,');
    const index = await open(id);
    expect(index.fromViewIndex).toBe(false);
    expect(index.columns).toEqual((await scanned(results, ['exact'])).columns);
  });

  it('a results file cut short after the run: the index is not used and the viewer says the file is short', async () => {
    const { id, results } = await finishedRun();
    const text = await readFile(results, 'utf8');
    await writeFile(results, `${text.split('\n').slice(0, 5).join('\n')}\n`);
    await expect(open(id)).rejects.toThrow(`run ${id}: expected 6 result rows (as its manifest records), found 5`);
  });
});
