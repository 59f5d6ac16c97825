import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { RunStorage } from '../../src/store/storage.js';
import type { RunManifest } from '../../src/store/index.js';
import type { AnnotationLine } from '../../src/review/index.js';
import { manifest, row } from './fixtures.js';
import { localBackend, postgresBackend } from './storage-backends.js';

/** sha256 of lines each followed by `\n`, computed here with node:crypto, independently of ResultsHash. */
function sha256Of(lines: string[]): string {
  return createHash('sha256').update(lines.map((line) => `${line}\n`).join('')).digest('hex');
}

const line = (index: number, repeat = 0, extra = {}): string => JSON.stringify(row(index, repeat, extra));
const TEN_KB = 'x'.repeat(10 * 1024);
const HOSTILE = `it's "quoted" \\ back\0slash NUL; DROP TABLE agentmark_runs; -- ${TEN_KB}`;

function withGit(m: RunManifest, branch: string, commit: string): RunManifest {
  return { ...m, git: { commit, dirty: false, branch } };
}

describe.each([localBackend(), postgresBackend()])('the storage contract: $name', (backend) => {
  let storage: RunStorage;
  beforeEach(async () => {
    storage = await backend.make();
  }, 60_000);
  afterEach(() => storage.close());
  afterAll(() => backend.stop());

  test('a created run is read back and listed newest first; queries narrow by prompt, branch, commit prefix, status and limit', async () => {
    await storage.createRun(withGit(manifest('20261130T031500Z-a'), 'main', 'abc123'));
    await storage.createRun(withGit({ ...manifest('20261130T041500Z-b'), prompt: { ...manifest('x').prompt, path: 'prompts/other.prompt.mdx' } }, 'main', 'abc999'));
    await storage.createRun(withGit(manifest('20261130T051500Z-c'), 'feature', 'def456'));
    expect(await storage.getRun('20261130T031500Z-a')).toEqual(withGit(manifest('20261130T031500Z-a'), 'main', 'abc123'));
    expect(await storage.getRun('20261130T031500Z-zz')).toBeUndefined();
    const ids = async (query = {}): Promise<string[]> => (await storage.listRuns(query)).map((m) => m.id);
    expect(await ids()).toEqual(['20261130T051500Z-c', '20261130T041500Z-b', '20261130T031500Z-a']);
    expect(await ids({ limit: 2 })).toEqual(['20261130T051500Z-c', '20261130T041500Z-b']);
    expect(await ids({ promptPath: 'prompts/math.prompt.mdx' })).toEqual(['20261130T051500Z-c', '20261130T031500Z-a']);
    expect(await ids({ promptPath: 'prompts/math.prompt.mdx', branch: 'main' })).toEqual(['20261130T031500Z-a']);
    expect(await ids({ commit: 'abc' })).toEqual(['20261130T041500Z-b', '20261130T031500Z-a']);
    expect(await ids({ commit: 'abc1' })).toEqual(['20261130T031500Z-a']);
    expect(await ids({ status: 'completed' })).toEqual([]);
    expect(await ids({ idPrefix: '20261130T0' })).toEqual(['20261130T051500Z-c', '20261130T041500Z-b', '20261130T031500Z-a']);
    expect(await ids({ idPrefix: '20261130T04' })).toEqual(['20261130T041500Z-b']);
    expect(await ids({ idPrefix: '2026%' })).toEqual([]);
  });

  test('an id taken twice is STORE_RUN_EXISTS, an id that could leave the store is STORE_BAD_RUN_ID', async () => {
    await storage.createRun(manifest('20261130T031500Z-a'));
    await expect(storage.createRun(manifest('20261130T031500Z-a'))).rejects.toMatchObject({ code: 'STORE_RUN_EXISTS' });
    await expect(storage.createRun(manifest("../x'; --"))).rejects.toMatchObject({ code: 'STORE_BAD_RUN_ID' });
  });

  test('rows appended in finish order come back in dataset order, counted and hashed as the lines with their newlines', async () => {
    const id = '20261130T031500Z-a';
    await storage.createRun(manifest(id));
    const lines = [line(2), line(0), line(1, 1), line(1, 0)];
    expect(await storage.appendRows(id, 0, lines.slice(0, 2))).toBe(2);
    expect(await storage.appendRows(id, 2, lines.slice(2))).toBe(2);
    expect(await storage.rowCount(id)).toBe(4);
    expect(await storage.integrityOf(id)).toEqual({ rows: 4, sha256: sha256Of(lines) });
    const done = await storage.complete(id, { status: 'completed', integrity: { rows: 4, sha256: sha256Of(lines) } });
    expect(done.status).toBe('completed');
    const read: Array<[number, number, string]> = [];
    for await (const { row: r, text } of storage.readRows(id)) read.push([r.index, r.repeat, text]);
    expect(read).toEqual([
      [0, 0, `${line(0)}\n`],
      [1, 0, `${line(1, 0)}\n`],
      [1, 1, `${line(1, 1)}\n`],
      [2, 0, `${line(2)}\n`],
    ]);
    expect((await storage.getRun(id))?.integrity).toEqual({ rows: 4, sha256: sha256Of(lines) });
  });

  test('readLines gives the stored lines in finish order, from a given line on', async () => {
    const id = '20261130T031500Z-a';
    await storage.createRun(manifest(id));
    const lines = [line(2), line(0), line(1)];
    await storage.appendRows(id, 0, lines);
    const read = async (from?: number): Promise<string[]> => {
      const out: string[] = [];
      for await (const text of storage.readLines(id, from)) out.push(text);
      return out;
    };
    expect(await read()).toEqual(lines);
    expect(await read(1)).toEqual(lines.slice(1));
    expect(await read(3)).toEqual([]);
  });

  test('lines offered again are kept once (a retried push); lines beyond the stored ones are STORE_ROWS_GAP', async () => {
    const id = '20261130T031500Z-a';
    await storage.createRun(manifest(id));
    const lines = [line(0), line(1), line(2)];
    expect(await storage.appendRows(id, 0, lines.slice(0, 2))).toBe(2);
    expect(await storage.appendRows(id, 0, lines)).toBe(1);
    expect(await storage.appendRows(id, 0, lines)).toBe(0);
    expect(await storage.integrityOf(id)).toEqual({ rows: 3, sha256: sha256Of(lines) });
    await expect(storage.appendRows(id, 5, [line(5)])).rejects.toMatchObject({ code: 'STORE_ROWS_GAP' });
  });

  test('a completion whose record is not what is stored is STORE_RESULTS_MISMATCH, and the run stays running', async () => {
    const id = '20261130T031500Z-a';
    await storage.createRun(manifest(id));
    await storage.appendRows(id, 0, [line(0), line(1)]);
    await expect(storage.complete(id, { status: 'completed', integrity: { rows: 3, sha256: sha256Of([line(0), line(1)]) } })).rejects.toMatchObject({ code: 'STORE_RESULTS_MISMATCH' });
    await expect(storage.complete(id, { status: 'completed', integrity: { rows: 2, sha256: sha256Of([line(0), line(9)]) } })).rejects.toMatchObject({ code: 'STORE_RESULTS_MISMATCH' });
    expect((await storage.getRun(id))?.status).toBe('running');
  });

  test('a run of more rows than one page (10,000) comes back whole in dataset order', async () => {
    const id = '20261130T031500Z-p';
    await storage.createRun(manifest(id));
    // 25,000 rows finishing in an order far from the dataset's: each block of 7 reversed, and repeats 1 before 0.
    const order: Array<[number, number]> = [];
    for (let start = 0; start < 12_500; start += 7) {
      for (let index = Math.min(start + 6, 12_499); index >= start; index -= 1) order.push([index, 1], [index, 0]);
    }
    const lines = order.map(([index, repeat]) => line(index, repeat));
    expect(await storage.appendRows(id, 0, lines)).toBe(25_000);
    await storage.complete(id, { status: 'completed', integrity: { rows: 25_000, sha256: sha256Of(lines) } });
    const read: string[] = [];
    for await (const { row: r } of storage.readRows(id)) read.push(`${r.index}:${r.repeat}`);
    expect(read).toEqual(Array.from({ length: 25_000 }, (_, k) => `${k >> 1}:${k & 1}`));
  }, 60_000);

  // The local store's completion checks its own writer's count and hash; it finds such rows when the run is read.
  test.skipIf(backend.name === 'local')('rows holding one (index, repeat) twice are STORE_DUPLICATE_ROW at completion, naming the first such key in dataset order', async () => {
    const id = '20261130T031500Z-a';
    const lines = [line(7), line(2, 1), line(2, 0), line(7), line(2, 1)];
    await storage.createRun(manifest(id));
    await storage.appendRows(id, 0, lines);
    await expect(storage.complete(id, { status: 'completed', integrity: { rows: 5, sha256: sha256Of(lines) } })).rejects.toMatchObject({
      code: 'STORE_DUPLICATE_ROW',
      message: expect.stringContaining('row 2 (repeat 1) appears twice'),
    });
    expect((await storage.getRun(id))?.status).toBe('running');
  });

  test('a row edited by hand after completion is caught by checkRun and by reading', async () => {
    const id = '20261130T031500Z-a';
    const lines = [line(0), line(1)];
    await storage.createRun(manifest(id));
    await storage.appendRows(id, 0, lines);
    await storage.complete(id, { status: 'completed', integrity: { rows: 2, sha256: sha256Of(lines) } });
    await storage.checkRun(id);
    await backend.tamper(storage, id, 1, (text) => text.replace('"answer 1"', '"answer X"'));
    await expect(storage.checkRun(id)).rejects.toMatchObject({ code: 'STORE_RESULTS_MISMATCH' });
    const reading = async (): Promise<void> => {
      for await (const _ of storage.readRows(id)) void _;
    };
    await expect(reading()).rejects.toMatchObject({ code: 'STORE_RESULTS_MISMATCH' });
  });

  test('updateRun merges a patch into the manifest; an unknown run is USAGE_UNKNOWN_RUN naming the closest id', async () => {
    const id = '20261130T031500Z-a';
    await storage.createRun(manifest(id));
    const next = await storage.updateRun(id, { endedAt: '2026-11-30T03:16:00.000Z', status: 'interrupted' });
    expect(next).toEqual({ ...manifest(id), endedAt: '2026-11-30T03:16:00.000Z', status: 'interrupted' });
    expect(await storage.getRun(id)).toEqual(next);
    expect((await storage.listRuns({ status: 'interrupted' })).map((m) => m.id)).toEqual([id]);
    await expect(storage.updateRun('20261130T031500Z-b', {})).rejects.toMatchObject({ code: 'USAGE_UNKNOWN_RUN', hint: expect.stringContaining(`did you mean "${id}"?`) });
  });

  test('the view columns of a completed run are the rows table the viewer shows, in finish order', async () => {
    const id = '20261130T031500Z-a';
    const failing = { evals: { exact: { score: 0, passed: false, normalized: 0 } }, cached: true };
    const lines = [line(1), line(0, 0, failing)];
    await storage.createRun(manifest(id));
    await storage.appendRows(id, 0, lines);
    await storage.complete(id, { status: 'completed', integrity: { rows: 2, sha256: sha256Of(lines) } });
    const columns = await storage.viewColumns(id);
    expect(columns).toMatchObject({ evalNames: ['exact'], index: [1, 0], repeat: [0, 0], flags: [0, 2 | 4], latencyMs: [101, 100], verdicts: 'PF', scores: [[1, 0]] });
  });

  test('a blob is stored once under its sha256 and read back byte for byte, NULs and 10 KB included; an unknown one is STORE_BLOB_MISSING', async () => {
    const hash = await storage.putBlob(HOSTILE);
    expect(hash).toBe(createHash('sha256').update(HOSTILE, 'utf8').digest('hex'));
    expect(await storage.putBlob(HOSTILE)).toBe(hash);
    expect(await storage.getBlob(hash)).toBe(HOSTILE);
    await expect(storage.getBlob('0'.repeat(64))).rejects.toMatchObject({ code: 'STORE_BLOB_MISSING' });
  });

  test('label lines come back in the order written, with quotes, NULs and 10 KB notes as given', async () => {
    const id = '20261130T031500Z-a';
    await storage.createRun(manifest(id));
    const label = (k: number, note: string): AnnotationLine => ({ row: `r${k}`, index: k, repeat: 0, outputHash: 'h'.repeat(12), eval: 'exact', value: true, note, reviewer: `o'brien "\0"`, at: '2026-11-30T03:20:00.000Z' });
    await storage.appendAnnotations(id, [label(0, HOSTILE), label(1, 'b')]);
    await storage.appendAnnotations(id, [label(2, 'c')]);
    expect(await storage.readAnnotations(id)).toEqual([label(0, HOSTILE), label(1, 'b'), label(2, 'c')]);
  });

  test('a row and a manifest holding quotes, NULs and 10 KB of text are stored and read literally', async () => {
    const id = "20261130T031500Z-it's";
    const hostile: RunManifest = { ...manifest('x'), id: '20261130T031500Z-a', prompt: { path: `prompts/${HOSTILE.slice(0, 60)}.prompt.mdx`, hash: 'a'.repeat(64), name: HOSTILE } };
    await storage.createRun(hostile);
    expect(await storage.getRun(hostile.id)).toEqual(hostile);
    expect((await storage.listRuns({ promptPath: hostile.prompt.path })).map((m) => m.id)).toEqual([hostile.id]);
    const lines = [line(0, 0, { output: HOSTILE, input: { q: HOSTILE } })];
    await storage.appendRows(hostile.id, 0, lines);
    await storage.complete(hostile.id, { status: 'completed', integrity: { rows: 1, sha256: sha256Of(lines) } });
    const read: string[] = [];
    for await (const { row: r } of storage.readRows(hostile.id)) read.push(r.output as string);
    expect(read).toEqual([HOSTILE]);
    expect(await storage.getRun(id)).toBeUndefined();
  });

  test('a removed run is gone with its rows; removing it again says there was none', async () => {
    const id = '20261130T031500Z-a';
    await storage.createRun(manifest(id));
    await storage.appendRows(id, 0, [line(0)]);
    expect(await storage.removeRun(id)).toBe(true);
    expect(await storage.getRun(id)).toBeUndefined();
    expect(await storage.listRuns()).toEqual([]);
    expect(await storage.removeRun(id)).toBe(false);
  });
  const shardOf = (id: string, group: string, index: number, count = 2): RunManifest => ({ ...manifest(id), shard: { index, count, evals: ['exact'], group } });

  test("listShards gives a group's shard runs newest first, whatever their status; mergedRunOf gives the run merged from it", async () => {
    await storage.createRun(shardOf('20261130T031500Z-a', 'gha-41', 1));
    // A NUL and quotes elsewhere in the manifest do not hide it from its group.
    const hostile = shardOf('20261130T041500Z-b', 'gha-41', 2);
    await storage.createRun({ ...hostile, prompt: { ...hostile.prompt, path: `prompts/${HOSTILE}` } });
    await storage.createRun(shardOf('20261130T051500Z-c', 'gha-42', 1));
    await storage.createRun(manifest('20261130T061500Z-d'));
    await storage.createRun({ ...manifest('20261130T071500Z-e'), merged: { count: 2, shards: [], missing: [], group: 'gha-41' } });
    await storage.updateRun('20261130T031500Z-a', { status: 'completed' });
    expect((await storage.listShards('gha-41')).map((m) => [m.id, m.shard?.index, m.status])).toEqual([
      ['20261130T041500Z-b', 2, 'running'],
      ['20261130T031500Z-a', 1, 'completed'],
    ]);
    expect((await storage.listShards('gha-42')).map((m) => m.id)).toEqual(['20261130T051500Z-c']);
    expect(await storage.listShards('gha-4')).toEqual([]);
    expect((await storage.mergedRunOf('gha-41'))?.id).toBe('20261130T071500Z-e');
    expect(await storage.mergedRunOf('gha-42')).toBeUndefined();
  });

  test("a shard group's lock is held by one holder at a time: a second taker waits for the release", async () => {
    const release = await storage.lockShardGroup('gha-41');
    const order: string[] = [];
    const second = storage.lockShardGroup('gha-41').then((releaseSecond) => {
      order.push('second took it');
      return releaseSecond;
    });
    // Another group's lock is not held up by it.
    const other = await storage.lockShardGroup('gha-42');
    await other();
    await storage.listRuns();
    order.push('first releases');
    await release();
    await (await second)();
    expect(order).toEqual(['first releases', 'second took it']);
    // Released: it can be taken again at once.
    await (await storage.lockShardGroup('gha-41'))();
  });

  test.runIf(backend.name === 'postgres')('the database keeps one merged run per shard group, whoever stores a second', async () => {
    await storage.createRun({ ...manifest('20261130T071500Z-e'), merged: { count: 2, shards: [], missing: [], group: 'gha-41' } });
    await expect(storage.createRun({ ...manifest('20261130T081500Z-f'), merged: { count: 2, shards: [], missing: [], group: 'gha-41' } })).rejects.toMatchObject({ code: '23505' });
    await storage.createRun({ ...manifest('20261130T091500Z-g'), merged: { count: 2, shards: [], missing: [] } });
    expect((await storage.listRuns()).map((m) => m.id)).toEqual(['20261130T091500Z-g', '20261130T071500Z-e']);
  });
});
