import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { AnnotationLine } from '../../src/review/index.js';
import { LocalStorage } from '../../src/store/local/local-storage.js';
import type { PgStorage } from '../../src/store/postgres/pg-storage.js';
import type { RunStorage } from '../../src/store/storage.js';
import type { RunManifest } from '../../src/store/index.js';
import { copyRun } from '../../src/store/transfer/copy-run.js';
import { usePostgresStore } from '../helpers/store-test.js';
import { manifest, row, tempDir } from './fixtures.js';
import { localBackend, postgresBackend } from './storage-backends.js';
import { makeLocalRun } from './store-runs.js';

const lines = (n: number): string[] => Array.from({ length: n }, (_, i) => JSON.stringify(row(i)));
const label = (index: number): AnnotationLine => ({ row: `r${index}`, index, repeat: 0, outputHash: 'h', eval: 'exact', value: true, reviewer: 'vera', at: '2026-12-02T06:00:00.000Z' });

/** A run of 3 rows and 2 labels whose provenance names one blob of its own and one shared with `other`. */
async function runWithEverything(storage: RunStorage, id: string, own: string, shared: string): Promise<RunManifest> {
  const ownHash = await storage.putBlob(own);
  const sharedHash = await storage.putBlob(shared);
  const made: RunManifest = { ...manifest(id), provenance: { files: [{ path: 'prompts/math.prompt.mdx', hash: ownHash }], config: [{ path: 'agentmark.json', hash: sharedHash }] } };
  await storage.createRun(made);
  await storage.appendRows(id, 0, lines(3));
  await storage.appendAnnotations(id, [label(0), label(1)]);
  return made;
}

describe.each([localBackend(), postgresBackend()])('removeRun: $name', (backend) => {
  let storage: RunStorage;
  beforeEach(async () => {
    storage = await backend.make();
  }, 60_000);
  afterEach(() => storage.close());
  afterAll(() => backend.stop());

  test('takes the run, its rows, its labels and the blobs no other run names; keeps the other run whole', async () => {
    const gone = '20261202T060000Z-gone';
    const kept = '20261202T061000Z-kept';
    const own = 'the prompt of the removed run only\n';
    const shared = '{ "version": "2.0.0" }\n';
    await runWithEverything(storage, gone, own, shared);
    await runWithEverything(storage, kept, 'the prompt of the kept run\n', shared);
    expect(await storage.removeRun(gone)).toBe(true);
    expect(await storage.getRun(gone)).toBeUndefined();
    expect((await storage.listRuns()).map((m) => m.id)).toEqual([kept]);
    expect(await storage.getBlob(sha256(shared))).toBe(shared);
    const missing = await storage.getBlob(sha256(own)).catch((error: unknown) => (error as { code: string }).code);
    expect(missing).toBe('STORE_BLOB_MISSING');
    expect([await storage.rowCount(kept), (await storage.readAnnotations(kept)).length]).toEqual([3, 2]);
    if (backend.name === 'postgres') {
      const pool = (storage as PgStorage).pool;
      const count = async (table: string): Promise<number> => (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE run_id = $1`, [gone])).rows[0]?.n ?? -1;
      expect([await count('agentmark_rows'), await count('agentmark_annotations')]).toEqual([0, 0]);
      expect((await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM agentmark_blobs')).rows[0]?.n).toBe(2);
    }
    expect(await storage.removeRun(gone)).toBe(false);
  });
});

/** A blob's name: the sha256 of its text, with node:crypto. */
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('a re-push over a damaged unfinished copy', () => {
  const db = usePostgresStore('repush');
  test('replaces it: the damaged rows go, the run is sent whole and completed with exactly its rows', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const id = '20261202T062000Z-damaged';
      const integrity = await makeLocalRun(dir, id, 4);
      // A push killed after two rows, one of them then edited in the table.
      await db.storage.createRun(manifest(id));
      await db.storage.appendRows(id, 0, lines(2));
      await db.storage.pool.query("UPDATE agentmark_rows SET line = replace(line, 'answer 1', 'edited') WHERE run_id = $1 AND seq = 1", [id]);
      const pushed = await copyRun(new LocalStorage(dir), db.storage, id);
      expect(pushed).toEqual({ id, rows: 4, sent: 4, already: false, replaced: true });
      expect(await db.storage.getRun(id)).toMatchObject({ status: 'completed', integrity });
      const { rows } = await db.storage.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM agentmark_rows WHERE run_id = $1', [id]);
      expect(rows[0]?.n).toBe(4);
      await db.storage.checkRun(id);
    } finally {
      await cleanup();
    }
  });
});
