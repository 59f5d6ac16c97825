import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/canonical-json.js';

/** The definition canonicalJson is written out from: JSON.stringify of a copy with sorted keys. */
function reference(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map((item) => (item === undefined ? null : sortKeys(item)));
    if (v === null || typeof v !== 'object') return v;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(v).sort()) {
      const item = (v as Record<string, unknown>)[key];
      if (item !== undefined) sorted[key] = sortKeys(item);
    }
    return sorted;
  };
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

const KEYS = ['b', 'a', 'A', '10', '9', '0', '01', '-1', '1.5', '4294967295', '4294967294', 'é', 'z"q', '__proto__', 'toJSON', ''];

function randomValue(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 6 : 9));
  switch (pick) {
    case 0: return null;
    case 1: return next() < 0.5;
    case 2: return [0, -0, 1.5, -3e21, 1e-7, Number.NaN, Number.POSITIVE_INFINITY, 42][Math.floor(next() * 8)];
    case 3: return ['', 'x', 'line\nbreak', 'quote"', '\u2028', 'é😀'][Math.floor(next() * 6)];
    case 4: return undefined;
    case 5: return [() => 1, Symbol('s'), new Date(0)][Math.floor(next() * 3)];
    case 6: case 7: {
      const object: Record<string, unknown> = {};
      const n = Math.floor(next() * 6);
      for (let i = 0; i < n; i += 1) {
        const key = KEYS[Math.floor(next() * KEYS.length)] as string;
        Object.defineProperty(object, key, { value: randomValue(next, depth + 1), enumerable: true, configurable: true, writable: true });
      }
      return object;
    }
    default: {
      const array: unknown[] = [];
      const n = Math.floor(next() * 5);
      for (let i = 0; i < n; i += 1) array.push(randomValue(next, depth + 1));
      if (next() < 0.2) array.length += 2; // holes
      return array;
    }
  }
}

describe('canonicalJson', () => {
  it('sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
  });

  it('puts array-index keys first in numeric order, as an object built from sorted keys holds them', () => {
    expect(canonicalJson({ b: 1, 10: 'ten', 9: 'nine', a: 2, '01': 3 })).toBe('{"9":"nine","10":"ten","01":3,"a":2,"b":1}');
  });

  it('drops undefined, functions and symbols in objects, writes null for them in arrays, and loses a __proto__ key as the copy does', () => {
    const value = JSON.parse('{"__proto__":{"x":1},"k":1}') as Record<string, unknown>;
    value.u = undefined;
    value.f = () => 1;
    value.list = [undefined, () => 1, Symbol('s')];
    expect(canonicalJson(value)).toBe('{"k":1,"list":[null,null,null]}');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(new Date(0))).toBe('{}');
    // Already in order and flat (written natively): the same rules.
    expect(canonicalJson({ a: 1, b: undefined, c: () => 1, d: [undefined, () => 1] })).toBe('{"a":1,"d":[null,null]}');
    expect(canonicalJson({ a: { b: new Date(0) } })).toBe('{"a":{"b":{}}}');
  });

  it('equals JSON.stringify of a sorted copy on 20,000 random values', () => {
    const next = seeded(30);
    for (let i = 0; i < 20_000; i += 1) {
      const value = randomValue(next, 0);
      expect(canonicalJson(value)).toBe(reference(value));
    }
  });
});
