import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { batchOfLines } from '../../src/store/line-batch.js';
import { lineKeys } from '../../src/store/line-keys.js';
import { LocalStorage } from '../../src/store/local/local-storage.js';
import { copyBinaryRows } from '../../src/store/postgres/pg-copy-binary.js';
import { copyRun } from '../../src/store/transfer/copy-run.js';
import { usePostgresStore } from '../helpers/store-test.js';
import { manifest, onTempDir, row } from './fixtures.js';
import { makeLocalRun } from './store-runs.js';

const db = usePostgresStore('copy_binary');
const ID = '20261130T031500Z-a';
let dir = '';
onTempDir((made) => {
  dir = made;
});

/** sha256 of the lines each followed by `\n`, with node:crypto. */
const sha256Of = (lines: string[]): string => createHash('sha256').update(lines.map((l) => `${l}\n`).join('')).digest('hex');

describe('copyBinaryRows', () => {
  test('lays out COPY binary as PostgreSQL documents it: header, five fields a tuple (text as its raw UTF-8, int4s), trailer', () => {
    const batch = batchOfLines(['{"index":7,"line":8,"repeat":1}', 'é'], 41, 'f');
    // The second line is not a row: keys are given here as the store would have read them.
    const out = copyBinaryRows('r1', batch, { index: Float64Array.of(7, 9), repeat: Float64Array.of(1, 0) });
    const tuple = (seq: number, idx: number, rep: number, line: string): Buffer => {
      const text = Buffer.from(line, 'utf8');
      const head = Buffer.alloc(2 + 4 + 2 + 3 * 8 + 4);
      head.writeInt16BE(5, 0);
      head.writeInt32BE(2, 2);
      head.write('r1', 6, 'latin1');
      [seq, idx, rep].forEach((value, k) => {
        head.writeInt32BE(4, 8 + k * 8);
        head.writeInt32BE(value, 12 + k * 8);
      });
      head.writeInt32BE(text.length, 32);
      return Buffer.concat([head, text]);
    };
    const expected = Buffer.concat([
      Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'),
      Buffer.alloc(8),
      tuple(41, 7, 1, '{"index":7,"line":8,"repeat":1}'),
      tuple(42, 9, 0, 'é'),
      Buffer.from([0xff, 0xff]),
    ]);
    expect(out.equals(expected)).toBe(true);
  });

  test('an index the integer column cannot hold is STORE_CORRUPT_RESULTS naming the line, not a wrapped number', () => {
    const batch = batchOfLines(['{"index":0,"line":1,"repeat":0}', '{"index":3000000000,"line":2,"repeat":0}'], 0, 'runs/r/results.jsonl');
    expect(() => copyBinaryRows('r', batch, lineKeys(batch))).toThrow(
      expect.objectContaining({ code: 'STORE_CORRUPT_RESULTS', location: { file: 'runs/r/results.jsonl', line: 2 }, message: expect.stringContaining('index 3000000000') }),
    );
  });
});

describe('rows COPYed in binary', () => {
  test('quotes, backslashes, JSON\'s \\u0000, raw tabs and carriage returns, multi-byte text and 10 KB lines are stored byte for byte', async () => {
    const { storage } = db;
    const lines = [
      JSON.stringify(row(0, 0, { output: 'say "hi" \\ back\\slash \t tab \n newline \r cr \u0000 nul' })),
      // Whitespace JSON allows around a row: raw tab and carriage return bytes, which the text format had to escape.
      `${JSON.stringify(row(1))}\t\r`,
      JSON.stringify(row(2, 0, { output: 'é ü 日本語 🙂 \u2028' })),
      JSON.stringify(row(3, 0, { output: 'x'.repeat(10_240) })),
      '{"repeat":0,"index":4,"output":"keys in another order"}',
    ];
    await storage.createRun(manifest(ID));
    expect(await storage.appendRows(ID, 0, lines)).toBe(5);
    const back: string[] = [];
    for await (const line of storage.readLines(ID)) back.push(line);
    expect(back).toEqual(lines);
    const { rows } = await storage.pool.query<{ idx: number; rep: number; nul: boolean }>("SELECT idx, rep, strpos(line, '\\u0000') > 0 AS nul FROM agentmark_rows WHERE run_id = $1 ORDER BY seq", [ID]);
    expect(rows).toEqual([0, 1, 2, 3, 4].map((k) => ({ idx: k, rep: 0, nul: k === 0 })));
    expect(await storage.integrityOf(ID)).toEqual({ rows: 5, sha256: sha256Of(lines) });
    expect((await storage.complete(ID, { status: 'completed', integrity: { rows: 5, sha256: sha256Of(lines) } })).status).toBe('completed');
  });

  test('a results line that is not valid UTF-8, or holds a raw NUL, is STORE_CORRUPT_RESULTS naming the results file and the line, with a hint', async () => {
    for (const [bad, what] of [[Buffer.from([0xff, 0xfe]), 'invalid byte sequence'], [Buffer.from([0x00]), '0x00']] as const) {
      const project = join(dir, `project-${bad[0]}`);
      await makeLocalRun(project, ID, 25_000);
      const local = new LocalStorage(project);
      const path = join(local.store.runDir(ID), 'results.jsonl');
      // Line 12,346 (place 12,345: the second page) gets the bytes inside its output string; the record follows the file.
      const text = await readFile(path);
      const lines = text.toString('latin1').split('\n');
      lines[12_345] = (lines[12_345] as string).replace('answer 12345', `answer ${bad.toString('latin1')}`);
      const damaged = Buffer.from(lines.join('\n'), 'latin1');
      await writeFile(path, damaged);
      await local.updateRun(ID, { integrity: { rows: 25_000, sha256: createHash('sha256').update(damaged).digest('hex') } });
      await local.checkRun(ID);
      const target = db.storage;
      await target.removeRun(ID);
      await expect(copyRun(local, target, ID)).rejects.toMatchObject({
        code: 'STORE_CORRUPT_RESULTS',
        message: expect.stringMatching(new RegExp(`^line 12346 is not valid UTF-8 text, so the store cannot hold it \\(.*${what}`)),
        location: { file: path, line: 12_346 },
        hint: expect.stringContaining('fix or remove the line'),
      });
      // The pages before it are stored; the one holding it is not (its transaction rolled back).
      const { rows } = await target.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM agentmark_rows WHERE run_id = $1', [ID]);
      expect(rows[0]?.n).toBe(10_000);
      await local.close();
    }
  }, 120_000);
});
