import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RowResult } from '../../src/experiment/types.js';
import { StoreMirror } from '../../src/serve/store-mirror.js';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import { ResultsHash } from '../../src/store/results-integrity.js';
import type { ResultsIntegrity, RunManifest } from '../../src/store/types.js';
import { useEmptyClones, usePostgresStore } from '../helpers/store-test.js';
import { row } from '../view/synthetic-run.js';

const db = usePostgresStore('mirror_changes');
const clone = useEmptyClones();
const RUN = '20261201-100000.000-aaaaaa';
const OTHER = '20261201-110000.000-bbbbbb';

function manifest(id: string): RunManifest {
  return {
    id,
    prompt: { path: 'prompts/p.prompt.mdx', hash: 'h', name: 'p' },
    model: 'openai/gpt-4o-mini',
    settings: {},
    options: {},
    startedAt: '2026-12-01T10:00:00.000Z',
    status: 'running',
  } as RunManifest;
}

function linesOf(count: number, output = (k: number) => `answer ${k}`): string[] {
  return Array.from({ length: count }, (_, k) => JSON.stringify({ ...row(k), output: output(k) } satisfies RowResult));
}

function integrityOf(lines: readonly string[]): ResultsIntegrity {
  const hash = new ResultsHash();
  for (const line of lines) hash.line(line);
  return hash.value();
}

/** A completed run in the store with these lines and no view index (serve copies it). */
async function completedRun(id: string, lines: readonly string[]): Promise<ResultsIntegrity> {
  await db.storage.createRun(manifest(id));
  for (let from = 0; from < lines.length; from += 5_000) await db.storage.appendRows(id, from, lines.slice(from, from + 5_000));
  const integrity = integrityOf(lines);
  await db.storage.complete(id, { status: 'completed', integrity });
  return integrity;
}

/** Gives `lines`, holding after the first until `release` is called; `started` resolves once the first is asked for. */
function held(lines: readonly string[]): { lines: AsyncIterable<string>; started: Promise<void>; release: () => void } {
  let release = (): void => undefined;
  let start = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const started = new Promise<void>((resolve) => (start = resolve));
  return {
    started,
    release: () => release(),
    lines: (async function* () {
      start();
      yield lines[0] as string;
      await gate;
      yield* lines.slice(1);
    })(),
  };
}

const damage = (id: string, seq: number): Promise<unknown> => db.storage.pool.query(`UPDATE agentmark_rows SET line = replace(line, '"answer ', '"edited ') WHERE run_id = $1 AND seq = $2`, [id, seq]);

describe('the serve mirror sees every committed change, and copies a run in one snapshot', () => {
  it('the change cursor gives runs oldest change first, then the runs deleted since, and goes on from where it stopped', async () => {
    const ids = Array.from({ length: 12 }, (_, k) => `20261201-1000${String(k).padStart(2, '0')}.000-aaaaaa`);
    // Made in reverse id order: change order is not id order (and 10 sorts before 9 as text).
    for (const id of [...ids].reverse()) await db.storage.createRun(manifest(id));
    const all = await db.storage.runsChangedAfter(undefined);
    expect(all.runs.map((run) => run.manifest.id)).toEqual([...ids].reverse());
    expect(all.runs.map((run) => run.change)).toEqual([...all.runs.map((run) => run.change)].sort((a, b) => a - b));
    expect(all.deleted).toEqual([]);
    expect(all.next.seq).toBe(all.runs.at(-1)?.change);
    await db.storage.removeRun(ids[3] as string);
    await db.storage.updateRun(ids[5] as string, { endedAt: '2026-12-01T10:05:00.000Z' });
    const since = await db.storage.runsChangedAfter(all.next);
    expect(since.deleted).toEqual([ids[3]]);
    expect(since.runs.map((run) => run.manifest.id)).toEqual([ids[5]]);
    expect(await db.storage.runsChangedAfter(since.next)).toEqual({ runs: [], deleted: [], next: since.next });
  });

  it('a repair whose transaction commits after a later change was read is still seen, and the run copied again with the repaired rows', async () => {
    const good = linesOf(30);
    const integrity = await completedRun(RUN, good);
    await completedRun(OTHER, linesOf(2));
    await damage(RUN, 3);
    const root = await clone();
    const storage = await PgStorage.connect(db.url);
    try {
      let clock = 1_000_000;
      const mirror = new StoreMirror(storage, root, () => clock);
      await mirror.syncRuns();
      const results = join(mirror.runsDir, RUN, 'results.jsonl');
      expect((await readFile(results, 'utf8')).split('\n')[3]).toContain('"edited 3"');

      // The repair takes its change number when it deletes the rows, then holds its transaction open.
      const repair = held(good);
      const repairing = db.storage.replaceLines(RUN, repair.lines, integrity);
      await repair.started;
      // A later change, committed first: the mirror reads past the repair's number.
      await db.storage.updateRun(OTHER, { endedAt: '2026-12-01T10:05:00.000Z' });
      clock += 1000;
      await mirror.syncRuns();
      expect((await readFile(results, 'utf8')).split('\n')[3]).toContain('"edited 3"');
      repair.release();
      await repairing;

      clock += 1000;
      await mirror.syncRuns();
      expect(await readFile(results, 'utf8')).toBe(good.map((line) => `${line}\n`).join(''));
    } finally {
      await storage.close();
    }
  });

  it('a copy read while a repair commits holds the rows of one side of it: every page from the snapshot its manifest was read in', async () => {
    // More than a page of rows (10,000): the repair commits between the copy's pages.
    const good = linesOf(10_050);
    const integrity = await completedRun(RUN, good);
    await damage(RUN, 0);
    await damage(RUN, 10_040);
    const damaged = good.map((line, k) => (k === 0 || k === 10_040 ? line.replaceAll('"answer ', '"edited ') : line));
    const { rows: before } = await db.storage.pool.query<{ change: string }>('SELECT change_seq::text AS change FROM agentmark_runs WHERE id = $1', [RUN]);

    const read: string[] = [];
    const seen = await db.storage.readSnapshot(RUN, async (run, lines) => {
      for await (const line of lines) {
        read.push(line);
        if (read.length === 1) await db.storage.replaceLines(RUN, (async function* () { yield* good; })(), integrity);
      }
      return run.change;
    });
    expect(seen).toBe(Number(before[0]?.change));
    expect(read.length).toBe(damaged.length);
    expect(read.every((line, k) => line === damaged[k])).toBe(true);
    // The repair committed: a snapshot now reads its rows, at a later change.
    const after = await db.storage.readSnapshot(RUN, async (run, lines) => {
      const all: string[] = [];
      for await (const line of lines) all.push(line);
      return { change: run.change, same: all.length === good.length && all.every((line, k) => line === good[k]) };
    });
    expect(after?.same).toBe(true);
    expect(after?.change).toBeGreaterThan(seen as number);
    expect(await db.storage.readSnapshot('20261201-000000.000-none00', async () => 'read')).toBeUndefined();
  });

  it('a repair given the run\'s view index stores it in the same commit as the rows: a server never sees the repaired run without it, and reads it from the store', async () => {
    const good = linesOf(30);
    const integrity = await completedRun(RUN, good);
    const columns = JSON.stringify(await db.storage.viewColumns(RUN));
    await db.storage.putViewColumns(RUN, columns, integrity);
    const root = await clone();
    const storage = await PgStorage.connect(db.url);
    try {
      let clock = 1_000_000;
      const mirror = new StoreMirror(storage, root, () => clock);
      await mirror.syncRuns();
      expect(mirror.serves(RUN)).toBe(true);
      await damage(RUN, 3);
      await db.storage.replaceLines(RUN, (async function* () { yield* good; })(), integrity, columns);
      const { rows } = await db.storage.pool.query<{ rows: number; sha256: string }>('SELECT rows, sha256 FROM agentmark_view_index WHERE run_id = $1', [RUN]);
      expect(rows).toEqual([integrity]);
      clock += 1000;
      await mirror.syncRuns();
      expect(mirror.serves(RUN)).toBe(true);
      await expect(readFile(join(mirror.runsDir, RUN, 'results.jsonl'), 'utf8')).rejects.toThrow('ENOENT');
    } finally {
      await storage.close();
    }
  });

  it('a run deleted and made again under its id between two syncs is copied afresh', async () => {
    await completedRun(RUN, linesOf(3));
    const root = await clone();
    const storage = await PgStorage.connect(db.url);
    try {
      let clock = 1_000_000;
      const mirror = new StoreMirror(storage, root, () => clock);
      await mirror.syncRuns();
      await db.storage.removeRun(RUN);
      const again = linesOf(4, (k) => `other ${k}`);
      await completedRun(RUN, again);
      clock += 1000;
      await mirror.syncRuns();
      expect(await readFile(join(mirror.runsDir, RUN, 'results.jsonl'), 'utf8')).toBe(again.map((line) => `${line}\n`).join(''));
    } finally {
      await storage.close();
    }
  });
});
