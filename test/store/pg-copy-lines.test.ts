import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { BinaryLines } from '../../src/store/postgres/pg-copy-lines.js';

/** COPY ... TO STDOUT (FORMAT binary) of one text column, as PostgreSQL's docs lay it out. */
function copyBinary(values: string[]): Buffer {
  const parts = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(4), Buffer.from([0, 0, 0, 2, 0xaa, 0xbb])];
  for (const value of values) {
    const bytes = Buffer.from(value, 'utf8');
    const head = Buffer.alloc(6);
    head.writeInt16BE(1, 0);
    head.writeInt32BE(bytes.length, 2);
    parts.push(head, bytes);
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

const lines = ['{"index":0,"output":"tab\\there, \\"quoted\\""}', '{"index":1,"output":"é ü 日本 🙂"}', '   ', '{"index":2}'];
// By hand: the sha256 of each line followed by "\n", as a results file holds them.
const expected = { rows: 3, sha256: createHash('sha256').update(lines.map((line) => `${line}\n`).join('')).digest('hex') };

describe('BinaryLines', () => {
  test('hashes the lines of a binary COPY as a results file hashes them; a blank line counts for the hash, not as a row', () => {
    const reader = new BinaryLines();
    reader.push(copyBinary(lines));
    expect(reader.end()).toEqual(expected);
  });

  test('the stream split at every byte gives the same count and sha256', () => {
    const whole = copyBinary(lines);
    for (let cut = 1; cut < whole.length; cut += 1) {
      const reader = new BinaryLines();
      reader.push(whole.subarray(0, cut));
      reader.push(whole.subarray(cut));
      expect(reader.end()).toEqual(expected);
    }
    const reader = new BinaryLines();
    for (const byte of whole) reader.push(Buffer.from([byte]));
    expect(reader.end()).toEqual(expected);
  });

  test('a stream that ends before its trailer is refused', () => {
    const whole = copyBinary(lines);
    const reader = new BinaryLines();
    reader.push(whole.subarray(0, whole.length - 5));
    expect(() => reader.end()).toThrow('COPY binary: the stream ended mid-row');
  });
});
