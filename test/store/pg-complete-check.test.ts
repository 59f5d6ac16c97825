import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import { usePostgresStore } from '../helpers/store-test.js';
import { manifest, row } from './fixtures.js';

/**
 * The completion of a run whose lines this process gave the store (appendRows, or noteStoredLines
 * for lines another push stored): the stored rows are hashed in the database, a range of places
 * at a time, against the lines given, instead of being read back whole.
 */
const db = usePostgresStore('complete_check');
const ID = '20261130T031500Z-a';
const line = (index: number, repeat = 0): string => JSON.stringify(row(index, repeat));
/** sha256 of lines each followed by `\n`, with node:crypto, independently of ResultsHash. */
const sha256Of = (lines: string[]): string => createHash('sha256').update(lines.map((l) => `${l}\n`).join('')).digest('hex');
const record = (lines: string[]) => ({ status: 'completed' as const, integrity: { rows: lines.length, sha256: sha256Of(lines) } });
const lines25k = Array.from({ length: 25_000 }, (_, k) => line(k));

test('a 25,000-row run completes; a row edited, added or removed by hand before the completion is STORE_RESULTS_MISMATCH, the run left running', async () => {
  const { storage } = db;
  const edits = [
    `UPDATE agentmark_rows SET line = replace(line, '"answer 15000"', '"answer x"') WHERE run_id = '${ID}' AND seq = 15000`,
    `INSERT INTO agentmark_rows (run_id, seq, idx, rep, line) VALUES ('${ID}', 25000, 25000, 0, '{}')`,
    `INSERT INTO agentmark_rows (run_id, seq, idx, rep, line) VALUES ('${ID}', -1, 25001, 0, '{}')`,
    `DELETE FROM agentmark_rows WHERE run_id = '${ID}' AND seq = 9999`,
  ];
  for (const edit of edits) {
    await storage.removeRun(ID);
    await storage.createRun(manifest(ID));
    expect(await storage.appendRows(ID, 0, lines25k)).toBe(25_000);
    await storage.pool.query(edit);
    await expect(storage.complete(ID, record(lines25k)), edit).rejects.toMatchObject({ code: 'STORE_RESULTS_MISMATCH' });
    expect((await storage.getRun(ID))?.status).toBe('running');
  }
  await storage.removeRun(ID);
  await storage.createRun(manifest(ID));
  await storage.appendRows(ID, 0, lines25k);
  expect((await storage.complete(ID, record(lines25k))).status).toBe('completed');
  // Every row was COPYed by this process and is still as inserted (its xmin): no range hashed on the server.
  expect(storage.lastRangeCheck).toEqual({ match: true, hashed: 0 });
  await storage.checkRun(ID);
}, 120_000);

test('a row rewritten by hand with its own text (a new row version, another xmin) makes the completion read the rows back; it still completes', async () => {
  const { storage } = db;
  await storage.createRun(manifest(ID));
  await storage.appendRows(ID, 0, lines25k);
  await storage.pool.query(`UPDATE agentmark_rows SET line = line WHERE run_id = '${ID}' AND seq = 15000`);
  expect((await storage.complete(ID, record(lines25k))).status).toBe('completed');
  // The lines written here were not hashed by range (their xmin stands for that): no range could be checked.
  expect(storage.lastRangeCheck).toEqual({ match: false, hashed: 0 });
  await storage.checkRun(ID);
}, 120_000);

test('lines another connection stored are noted, not sent: the completion checks them in the database; a noted line that differs is STORE_RESULTS_MISMATCH', async () => {
  const { storage, url } = db;
  await storage.createRun(manifest(ID));
  const other = await PgStorage.connect(url);
  try {
    expect(await other.appendRows(ID, 0, lines25k.slice(0, 20_000))).toBe(20_000);
  } finally {
    await other.close();
  }
  const changed = [...lines25k];
  changed[12_345] = line(99_999);
  storage.noteStoredLines(ID, 0, changed.slice(0, 20_000));
  expect(await storage.appendRows(ID, 20_000, changed.slice(20_000))).toBe(5_000);
  await expect(storage.complete(ID, record(changed))).rejects.toMatchObject({ code: 'STORE_RESULTS_MISMATCH' });
  expect((await storage.getRun(ID))?.status).toBe('running');
  storage.noteStoredLines(ID, 0, lines25k.slice(0, 20_000));
  expect(await storage.appendRows(ID, 20_000, lines25k.slice(20_000))).toBe(0);
  expect((await storage.complete(ID, record(lines25k))).status).toBe('completed');
  // Nothing here was written by this process: all three ranges (10,000 places each) hashed.
  expect(storage.lastRangeCheck).toEqual({ match: true, hashed: 3 });
  await storage.checkRun(ID);
}, 120_000);

test('a push that goes on after another stored the first rows: only the ranges holding rows it did not write are hashed', async () => {
  const { storage, url } = db;
  await storage.createRun(manifest(ID));
  const other = await PgStorage.connect(url);
  try {
    expect(await other.appendRows(ID, 0, lines25k.slice(0, 12_000))).toBe(12_000);
  } finally {
    await other.close();
  }
  storage.noteStoredLines(ID, 0, lines25k.slice(0, 12_000));
  expect(await storage.appendRows(ID, 12_000, lines25k.slice(12_000))).toBe(13_000);
  expect((await storage.complete(ID, record(lines25k))).status).toBe('completed');
  // Ranges [0, 10,000) and [10,000, 20,000) hold the other's rows; [20,000, 25,000) is this process's own.
  expect(storage.lastRangeCheck).toEqual({ match: true, hashed: 2 });
  await storage.checkRun(ID);
}, 120_000);

test('two rows of one (index, repeat) given to the store are STORE_DUPLICATE_ROW at completion, naming the first such key in dataset order', async () => {
  const { storage } = db;
  const lines = [...lines25k.slice(0, 12_000), line(11_000), line(3), ...lines25k.slice(12_000, 15_000)];
  await storage.createRun(manifest(ID));
  await storage.appendRows(ID, 0, lines);
  await expect(storage.complete(ID, record(lines))).rejects.toMatchObject({ code: 'STORE_DUPLICATE_ROW', message: expect.stringContaining('row 3 appears twice') });
  expect((await storage.getRun(ID))?.status).toBe('running');
}, 120_000);
