/** Where one entry's line sits in a segment file. */
export interface Slot {
  offset: number;
  length: number;
}

const EMPTY = 0;
const HEX = /^[0-9a-f]{21}/;

/**
 * Where each key's line is in a cache segment, in typed arrays: an open-addressing table on the
 * key's first 84 bits (52 in a double, 32 in a word), 24 bytes a place, ~45 bytes a key at the
 * table's load, instead of a 64-character string, an object and a map entry (~130): a run with
 * the cache on indexes every key of the segments it reads. Two keys sharing 84 bits (never, in practice, for sha256)
 * share a slot; the reader checks the line's own key, so that would read as a miss, never as
 * another request's answer. A key that is not hex is never indexed (cache keys are sha256 hex).
 */
export class KeyIndex {
  #high = new Float64Array(1024);
  #low = new Uint32Array(1024);
  #offset = new Float64Array(1024);
  #length = new Uint32Array(1024);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(key: string): Slot | undefined {
    const halves = halvesOf(key);
    if (halves === undefined) return undefined;
    const at = this.#find(halves[0], halves[1]);
    return this.#high[at] === EMPTY ? undefined : { offset: this.#offset[at] as number, length: this.#length[at] as number };
  }

  /** Records (or moves: a later line of a key wins) where the key's line is. */
  set(key: string, offset: number, length: number): void {
    const halves = halvesOf(key);
    if (halves === undefined) return;
    if ((this.#size + 1) * 4 > this.#high.length * 3) this.#grow();
    const at = this.#find(halves[0], halves[1]);
    if (this.#high[at] === EMPTY) this.#size += 1;
    this.#high[at] = halves[0];
    this.#low[at] = halves[1];
    this.#offset[at] = offset;
    this.#length[at] = length;
  }

  /** The key's place, or the empty one where it would go. */
  #find(high: number, low: number): number {
    const mask = this.#high.length - 1;
    let at = high % this.#high.length;
    while (this.#high[at] !== EMPTY && (this.#high[at] !== high || this.#low[at] !== low)) at = (at + 1) & mask;
    return at;
  }

  #grow(): void {
    const [high, low, offset, length] = [this.#high, this.#low, this.#offset, this.#length];
    const size = high.length * 2;
    this.#high = new Float64Array(size);
    this.#low = new Uint32Array(size);
    this.#offset = new Float64Array(size);
    this.#length = new Uint32Array(size);
    for (let i = 0; i < high.length; i++) {
      if (high[i] === EMPTY) continue;
      const at = this.#find(high[i] as number, low[i] as number);
      this.#high[at] = high[i] as number;
      this.#low[at] = low[i] as number;
      this.#offset[at] = offset[i] as number;
      this.#length[at] = length[i] as number;
    }
  }
}

/** The key's first 52 bits (plus 1: 0 marks an empty place) and its next 32, as exact numbers. */
function halvesOf(key: string): [number, number] | undefined {
  if (!HEX.test(key)) return undefined;
  return [Number.parseInt(key.slice(0, 13), 16) + 1, Number.parseInt(key.slice(13, 21), 16)];
}
