/**
 * A set of row × repeat pairs as one bit each, per repeat a bitmap over row indexes: a million
 * rows take 125 KB, where a set of `rowKey` strings takes ~50 MB. For whole-number indexes and
 * repeats (a dataset's rows); anything else is kept in a plain set beside.
 */
export class RowKeySet {
  readonly #bits: Uint8Array[] = [];
  readonly #other = new Set<string>();
  #size = 0;

  /** How many pairs the set holds. */
  get size(): number {
    return this.#size;
  }

  has(index: number, repeat: number): boolean {
    if (!isSmall(index, repeat)) return this.#other.has(`${index}:${repeat}`);
    const bits = this.#bits[repeat];
    return bits !== undefined && ((bits[index >>> 3] ?? 0) & (1 << (index & 7))) !== 0;
  }

  add(index: number, repeat: number): void {
    if (!isSmall(index, repeat)) {
      const key = `${index}:${repeat}`;
      if (!this.#other.has(key)) this.#size += 1;
      this.#other.add(key);
      return;
    }
    let bits = this.#bits[repeat] ?? new Uint8Array(1024);
    if (index >>> 3 >= bits.length) {
      const grown = new Uint8Array(Math.max(bits.length * 2, (index >>> 3) + 1));
      grown.set(bits);
      bits = grown;
    }
    this.#bits[repeat] = bits;
    const byte = bits[index >>> 3] as number;
    const bit = 1 << (index & 7);
    if ((byte & bit) === 0) this.#size += 1;
    bits[index >>> 3] = byte | bit;
  }
}

function isSmall(index: number, repeat: number): boolean {
  return Number.isInteger(index) && index >= 0 && index < 2 ** 31 && Number.isInteger(repeat) && repeat >= 0 && repeat < 10_000;
}
