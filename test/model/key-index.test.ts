import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyIndex } from '../../src/model/key-index.js';

const key = (i: number): string => createHash('sha256').update(String(i)).digest('hex');

describe('KeyIndex', () => {
  it('finds every key it was given, through its growth; a later place of a key wins', () => {
    const index = new KeyIndex();
    for (let i = 0; i < 20_000; i++) index.set(key(i), i * 100, i + 1);
    index.set(key(7), 5_000_000_000, 42);
    expect(index.size).toBe(20_000);
    expect(index.get(key(0))).toEqual({ offset: 0, length: 1 });
    expect(index.get(key(19_999))).toEqual({ offset: 1_999_900, length: 20_000 });
    expect(index.get(key(7))).toEqual({ offset: 5_000_000_000, length: 42 });
    expect(index.get(key(20_000))).toBeUndefined();
    let found = 0;
    for (let i = 0; i < 20_000; i++) if (index.get(key(i))?.length === (i === 7 ? 42 : i + 1)) found++;
    expect(found).toBe(20_000);
  });

  it('never indexes a key that is not hex, and never finds one', () => {
    const index = new KeyIndex();
    index.set(`zz${key(1).slice(2)}`, 10, 10);
    expect(index.size).toBe(0);
    expect(index.get(`zz${key(1).slice(2)}`)).toBeUndefined();
  });
});
