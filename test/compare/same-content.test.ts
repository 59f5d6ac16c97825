import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowContentText, type RowContent } from '../../src/dataset/row-identity.js';
import { sameContent } from '../../src/compare/same-content.js';

const row = (input: unknown, expectedOutput?: unknown, metadata?: unknown): RowContent =>
  ({ input, expectedOutput, metadata }) as RowContent;

// Each pair: sameContent must say what comparing the two identity texts says.
const pairs: Array<[string, RowContent, RowContent]> = [
  ['key order', row({ a: 1, b: [1, { c: 2, d: 3 }] }), row({ b: [1, { d: 3, c: 2 }], a: 1 })],
  ['a different leaf', row({ a: 1 }), row({ a: 2 })],
  ['a string and a number', row({ a: '1' }), row({ a: 1 })],
  ['-0 and 0', row({ a: -0 }), row({ a: 0 })],
  ['absent expected output and null', row({}, undefined), row({}, null)],
  ['absent metadata and {}', row({}, 'x', undefined), row({}, 'x', {})],
  ['an extra key', row({ a: 1 }), row({ a: 1, b: 2 })],
  ['an undefined value and no key', row({ a: 1, b: undefined }), row({ a: 1 })],
  ['an array and an object', row({ a: [1] }), row({ a: { 0: 1 } })],
  ['array lengths', row({ a: [1, 2] }), row({ a: [1] })],
  ['a hole and null', row({ a: [null] }), row({ a: [undefined] })],
  ['null and {}', row({ a: null }), row({ a: {} })],
  ['absent input and null', row(undefined), row(null)],
  ['absent inputs', row(undefined), row(undefined)],
  ['a __proto__ key', row(JSON.parse('{"__proto__":{"a":1}}')), row({})],
  ['index keys', row({ 10: 'x', 2: 'y', b: 1 }), row({ b: 1, 2: 'y', 10: 'x' })],
  ['NaN and null', row({ a: Number.NaN }), row({ a: null })],
  ['a Date and {}', row({ a: new Date(0) }), row({ a: '1970-01-01T00:00:00.000Z' })],
];

describe('sameContent', () => {
  it.each(pairs)('%s: as the identity texts say', (_name, a, b) => {
    const expected = rowContentText(a) === rowContentText(b);
    expect(sameContent(a, b)).toBe(expected);
    expect(sameContent(b, a)).toBe(expected);
  });

  it('agrees with the identity texts on any JSON values, and on a copy with its keys reversed', () => {
    const reversed = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(reversed);
      if (value === null || typeof value !== 'object') return value;
      return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)]));
    };
    const small = fc.jsonValue({ maxDepth: 3 });
    fc.assert(fc.property(small, small, fc.oneof(small, fc.constant(undefined)), (a, b, e) => {
      const x = row({ v: a }, e);
      expect(sameContent(x, row({ v: b }, e))).toBe(rowContentText(x) === rowContentText(row({ v: b }, e)));
      expect(sameContent(x, row(reversed({ v: a }), reversed(e)))).toBe(true);
    }), { numRuns: 500 });
  });

  it('equal for the same content, different otherwise (fixed expectations)', () => {
    expect(sameContent(row({ a: 1, b: 2 }, 'x', { k: [1] }), row({ b: 2, a: 1 }, 'x', { k: [1] }))).toBe(true);
    expect(sameContent(row({ a: 1 }, 'x'), row({ a: 1 }, 'y'))).toBe(false);
    expect(sameContent(row({}, undefined, undefined), row({}, null, {}))).toBe(true);
    expect(sameContent(row(null), row(undefined))).toBe(false);
  });
});
