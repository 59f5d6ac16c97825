/** mulberry32: a tiny seeded PRNG; the same seed always gives the same sequence in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The split bucket (0..99) of a row: murmur3's 32-bit finaliser over the index mixed with the
 * seed. It depends only on (index, seed), never on the file's other rows, so a row keeps its
 * bucket when rows are added after it.
 */
export function splitBucket(index: number, seed: number): number {
  let h = (index ^ Math.imul(seed >>> 0, 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % 100;
}

/**
 * `count` distinct indexes out of `0..total-1`, chosen by Floyd's algorithm: memory grows with
 * `count`, not with the file, and the choice is fixed by the seed.
 */
export function sampleIndexes(total: number, count: number, seed: number): Set<number> {
  const random = mulberry32(seed);
  const chosen = new Set<number>();
  if (count >= total) {
    for (let i = 0; i < total; i++) chosen.add(i);
    return chosen;
  }
  for (let j = total - count; j < total; j++) {
    const pick = Math.floor(random() * (j + 1));
    chosen.add(chosen.has(pick) ? j : pick);
  }
  return chosen;
}
