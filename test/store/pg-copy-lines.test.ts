import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { BinaryRows } from '../../src/store/postgres/pg-copy-lines.js';
import { KeySeen } from '../../src/store/postgres/key-seen.js';

/** COPY ... TO STDOUT (FORMAT binary) of (int4, int4, text) rows, as PostgreSQL's docs lay it out (with a 2-byte header extension). */
function copyBinary(rows: Array<[number, number, string]>): Buffer {
  const parts = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(4), Buffer.from([0, 0, 0, 2, 0xaa, 0xbb])];
  for (const [index, repeat, value] of rows) {
    const bytes = Buffer.from(value, 'utf8');
    const head = Buffer.alloc(22);
    head.writeInt16BE(3, 0);
    head.writeInt32BE(4, 2);
    head.writeInt32BE(index, 6);
    head.writeInt32BE(4, 10);
    head.writeInt32BE(repeat, 14);
    head.writeInt32BE(bytes.length, 18);
    parts.push(head, bytes);
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

const lines = ['{"index":0,"output":"tab\\there, \\"quoted\\""}', '{"index":1,"output":"é ü 日本 🙂"}', '   ', '{"index":2}'];
const rows: Array<[number, number, string]> = lines.map((line, k) => [k, 0, line]);
// By hand: the sha256 of each line followed by "\n", as a results file holds them.
const expected = { rows: 3, sha256: createHash('sha256').update(lines.map((line) => `${line}\n`).join('')).digest('hex'), duplicate: false };

describe('BinaryRows', () => {
  test('hashes the lines of a binary COPY as a results file hashes them; a blank line counts for the hash, not as a row', () => {
    const reader = new BinaryRows();
    reader.push(copyBinary(rows));
    expect(reader.end()).toEqual(expected);
  });

  test('the stream split at every byte gives the same count and sha256', () => {
    const whole = copyBinary(rows);
    for (let cut = 1; cut < whole.length; cut += 1) {
      const reader = new BinaryRows();
      reader.push(whole.subarray(0, cut));
      reader.push(whole.subarray(cut));
      expect(reader.end()).toEqual(expected);
    }
    const reader = new BinaryRows();
    for (const byte of whole) reader.push(Buffer.from([byte]));
    expect(reader.end()).toEqual(expected);
  });

  test('an (index, repeat) stored twice is found; the same index in another repeat is not', () => {
    const once = new BinaryRows();
    once.push(copyBinary([[5, 0, '{}'], [5, 1, '{}'], [6, 0, '{}']]));
    expect(once.end().duplicate).toBe(false);
    const twice = new BinaryRows();
    twice.push(copyBinary([[5, 0, '{}'], [6, 0, '{}'], [5, 0, '{}']]));
    expect(twice.end().duplicate).toBe(true);
  });

  test('a stream that ends before its trailer is refused', () => {
    const whole = copyBinary(rows);
    const reader = new BinaryRows();
    reader.push(whole.subarray(0, whole.length - 5));
    expect(() => reader.end()).toThrow('COPY binary: the stream ended mid-row');
  });
});

describe('KeySeen', () => {
  test('marks keys across bitmap growth, and negative or huge indexes through its fallback', () => {
    const seen = new KeySeen();
    for (const index of [0, 7, 8, 100_000, 3_000_000, -1, 2 ** 30]) expect(seen.mark(index, 0)).toBe(false);
    for (const index of [0, 7, 8, 100_000, 3_000_000, -1, 2 ** 30]) expect(seen.mark(index, 0)).toBe(true);
    expect(seen.mark(7, 2)).toBe(false);
    expect(seen.mark(9, 0)).toBe(false);
  });
});
