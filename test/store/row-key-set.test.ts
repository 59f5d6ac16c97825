import { describe, expect, it } from 'vitest';
import { RowKeySet } from '../../src/store/index.js';

describe('RowKeySet', () => {
  it('holds row × repeat pairs: each pair apart, through growth, odd values included', () => {
    const set = new RowKeySet();
    for (let i = 0; i < 100_000; i += 3) set.add(i, i % 2);
    expect(set.has(0, 0)).toBe(true);
    expect(set.has(0, 1)).toBe(false);
    expect(set.has(3, 1)).toBe(true);
    expect(set.has(3, 0)).toBe(false);
    expect(set.has(4, 0)).toBe(false);
    expect(set.has(99_999, 1)).toBe(true);
    expect(set.has(1_000_000, 0)).toBe(false);
    set.add(2.5, 0);
    set.add(7, 20_000);
    expect([set.has(2.5, 0), set.has(2, 0), set.has(7, 20_000), set.has(7, 19_999)]).toEqual([true, false, true, false]);
  });

  it('counts each pair once, however often it is added', () => {
    const set = new RowKeySet();
    expect(set.size).toBe(0);
    for (const [index, repeat] of [[0, 0], [0, 0], [9, 0], [9, 1], [2.5, 0], [2.5, 0], [7, 20_000], [7, 20_000]] as const) set.add(index, repeat);
    expect(set.size).toBe(5);
  });
});
