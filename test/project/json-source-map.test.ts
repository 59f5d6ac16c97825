import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanJson } from '../../src/project/json-source-map.js';

describe('scanJson', () => {
  it('maps JSON pointers to where values and keys start', () => {
    const scan = scanJson('{\n  "a": [1, {"b~/c": true}],\n  "s": "x"\n}');
    expect(scan.ok).toBe(true);
    if (!scan.ok) return;
    expect(Object.fromEntries(scan.pointers)).toEqual({
      '': { value: { line: 1, column: 1 } },
      '/a': { value: { line: 2, column: 8 }, key: { line: 2, column: 3 } },
      '/a/0': { value: { line: 2, column: 9 } },
      '/a/1': { value: { line: 2, column: 12 } },
      '/a/1/b~0~1c': { value: { line: 2, column: 21 }, key: { line: 2, column: 13 } },
      '/s': { value: { line: 3, column: 8 }, key: { line: 3, column: 3 } },
    });
  });

  it.each([
    ['', 1, 1, 'unexpected end of JSON, expected a JSON value'],
    ['{"a": 1} x', 1, 10, 'unexpected text after the JSON value'],
    ["{'a': 1}", 1, 2, `unexpected character "'", expected a property name in double quotes`],
    ['{"a" 1}', 1, 6, 'unexpected character "1", expected \':\' after property name'],
    ['[1 2]', 1, 4, "unexpected character \"2\", expected ',' or ']' after array element"],
    ['{"a": "x\ny"}', 1, 9, 'control character in string (newlines and tabs must be escaped)'],
    ['[01]', 1, 3, "unexpected character \"1\", expected ',' or ']' after array element"],
    ['{"a": tru}', 1, 7, 'unexpected character "t", expected a JSON value'],
  ])('locates the error in %j', (text, line, column, message) => {
    expect(scanJson(text)).toEqual({ ok: false, problem: { line, column, message } });
  });

  it('agrees with JSON.parse on what is valid, and maps every value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const scan = scanJson(text);
        expect(scan.ok && scan.pointers.size).toBe(countValues(JSON.parse(text) as unknown));
      }),
    );
    fc.assert(fc.property(fc.string({ maxLength: 12 }), (text) => scanJson(text).ok === parses(text)));
    // Near-valid text is where a scanner drifts from the grammar: cut or splice one character.
    const mutated = fc
      .tuple(fc.jsonValue(), fc.nat(), fc.constantFrom('', ',', '"', '0', '-', '.', 'e', ']', '}', ' '))
      .map(([value, at, insert]) => {
        const text = JSON.stringify(value);
        const cut = at % (text.length + 1);
        return text.slice(0, cut) + insert + text.slice(cut + (insert === '' ? 1 : 0));
      });
    fc.assert(fc.property(mutated, (text) => scanJson(text).ok === parses(text)), { numRuns: 2000 });
  });
});

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function countValues(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((sum: number, item: unknown) => sum + countValues(item), 0);
  if (typeof value === 'object' && value !== null) return 1 + Object.values(value).reduce((sum: number, item: unknown) => sum + countValues(item), 0);
  return 1;
}
