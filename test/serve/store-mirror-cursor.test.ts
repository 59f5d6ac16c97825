import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreMirror } from '../../src/serve/store-mirror.js';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import type { RunManifest } from '../../src/store/types.js';
import { useEmptyClones, usePostgresStore } from '../helpers/store-test.js';

const db = usePostgresStore('serve_cursor');
const clone = useEmptyClones();
const RUNS = 200;
/** sha256 of no bytes: the integrity record of a run with no rows. */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

function manifest(k: number): RunManifest {
  return {
    id: `20261201-${String(100000 + k).padStart(6, '0')}.000-cccccc`,
    prompt: { path: 'prompts/p.prompt.mdx', hash: 'h', name: 'p' },
    model: 'openai/gpt-4o-mini',
    settings: {},
    options: {},
    startedAt: '2026-12-01T10:00:00.000Z',
    status: 'completed',
    integrity: { rows: 0, sha256: EMPTY_SHA256 },
  } as RunManifest;
}

/** Every statement the mirror's store sends, with how many rows came back (node-postgres's pool, counted where it answers). */
function countQueries(storage: PgStorage): Array<{ text: string; values: unknown[]; rows: number }> {
  const seen: Array<{ text: string; values: unknown[]; rows: number }> = [];
  const pool = storage.pool as unknown as { query: (text: string, values?: unknown[]) => Promise<{ rowCount: number | null }> };
  const original = pool.query.bind(pool);
  pool.query = async (text, values) => {
    const result = await original(text, values);
    seen.push({ text, values: values ?? [], rows: result.rowCount ?? 0 });
    return result;
  };
  return seen;
}

describe('the serve mirror follows the store by its change numbers', () => {
  it(`an idle serve over ${RUNS} runs asks one question per second, answered with no rows; a change to one run is seen at the next sync, asking about that run only`, async () => {
    for (let k = 0; k < RUNS; k += 1) await db.storage.createRun(manifest(k));
    const root = await clone();
    const storage = await PgStorage.connect(db.url);
    try {
      let clock = 1_000_000;
      const mirror = new StoreMirror(storage, root, () => clock);
      await mirror.syncRuns();
      const queries = countQueries(storage);
      for (let second = 0; second < 5; second += 1) {
        clock += 1000;
        await mirror.syncRuns();
      }
      expect(queries.map((q) => [q.text.includes('WHERE r.change_seq > $1'), q.rows])).toEqual(Array.from({ length: 5 }, () => [true, 0]));

      const changed = manifest(50);
      await db.storage.updateRun(changed.id, { endedAt: '2026-12-01T10:05:00.000Z' });
      queries.length = 0;
      clock += 1000;
      await mirror.syncRuns();
      const copied = JSON.parse(await readFile(join(mirror.runsDir, changed.id, 'manifest.json'), 'utf8')) as RunManifest;
      expect(copied.endedAt).toBe('2026-12-01T10:05:00.000Z');
      // The cursor's answer is the one changed run; every other statement is about that run.
      expect(queries[0]?.rows).toBe(1);
      expect(queries.slice(1).every((q) => q.values[0] === changed.id)).toBe(true);
      expect(queries.reduce((sum, q) => sum + q.rows, 0)).toBeLessThan(10);
    } finally {
      await storage.close();
    }
  });
});
