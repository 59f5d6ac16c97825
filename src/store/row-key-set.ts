/**
 * A set of row × repeat pairs as one bit each, per repeat a bitmap over row indexes: a million
 * rows take 125 KB, where a set of `rowKey` strings takes ~50 MB. For whole-number indexes and
 * repeats (a dataset's rows); anything else is kept in a plain set beside.
 */
export class RowKeySet {
  readonly #bits: Uint8Array[] = [];
  readonly #other = new Set<string>();

  has(index: number, repeat: number): boolean {
    if (!isSmall(index, repeat)) return this.#other.has(`${index}:${repeat}`);
    const bits = this.#bits[repeat];
    return bits !== undefined && ((bits[index >>> 3] ?? 0) & (1 << (index & 7))) !== 0;
  }

  add(index: number, repeat: number): void {
    if (!isSmall(index, repeat)) {
      this.#other.add(`${index}:${repeat}`);
      return;
    }
    let bits = this.#bits[repeat] ?? new Uint8Array(1024);
    if (index >>> 3 >= bits.length) {
      const grown = new Uint8Array(Math.max(bits.length * 2, (index >>> 3) + 1));
      grown.set(bits);
      bits = grown;
    }
    this.#bits[repeat] = bits;
    bits[index >>> 3] = (bits[index >>> 3] as number) | (1 << (index & 7));
  }
}

function isSmall(index: number, repeat: number): boolean {
  return Number.isInteger(index) && index >= 0 && index < 2 ** 31 && Number.isInteger(repeat) && repeat >= 0 && repeat < 10_000;
}
