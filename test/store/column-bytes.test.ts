import { describe, expect, it } from 'vitest';
import { ColumnBytes } from '../../src/store/column-bytes.js';

describe('ColumnBytes', () => {
  it('writes each number as String does, NaN as null, each followed by a comma', () => {
    const values = [
      0, -0, 1, 9, 10, 99, 100, 12345, -7, -1000, 2 ** 31, 2 ** 32 + 1, 999_999_999_999_999, -999_999_999_999_999, 1e15, -1e15, 2 ** 53, 1e21, 1.5e300,
      0.5, -0.25, 1 / 3, 123.456, 1e-7, -2.5e-308, 5e-324, Number.MAX_VALUE, Number.MIN_VALUE, Number.NaN,
    ];
    const out = new ColumnBytes();
    for (const value of values) out.addNumber(value);
    expect(out.bytes.toString('latin1')).toBe(values.map((value) => (Number.isNaN(value) ? 'null,' : `${value},`)).join(''));
    expect(out.length).toBe(out.bytes.length);
  });

  it('grows past its first buffer, takes bytes and UTF-8 text, and starts again when cleared', () => {
    const out = new ColumnBytes();
    const many = Array.from({ length: 20_000 }, (_, i) => i * 7919 - 50_000);
    for (const value of many) out.addNumber(value);
    out.addBytes(Uint8Array.from([0x50, 0x46, 0x2d]));
    out.addText('"é😀",null,');
    expect(out.bytes.toString('utf8')).toBe(`${many.map((value) => `${value},`).join('')}PF-"é😀",null,`);
    out.clear();
    out.addText('null,'.repeat(100_000));
    expect(out.bytes.toString('latin1')).toBe('null,'.repeat(100_000));
  });
});
