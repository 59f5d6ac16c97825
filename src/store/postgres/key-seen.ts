/** Dataset indexes up to this get a bit each; a run of larger or negative ones falls back to a Set. */
const BITMAP_LIMIT = 1 << 28;

/**
 * The (index, repeat) keys of a run's rows seen so far, one bit each per repeat (a 1,000,000-row
 * run needs 125 KB, where a Set of its keys held tens of MB), so a read-back finds a key stored
 * twice in the same pass that hashes the rows.
 */
export class KeySeen {
  readonly #bits = new Map<number, Uint8Array>();
  readonly #other = new Set<string>();

  /** Marks the key; true when it was already marked. */
  mark(index: number, repeat: number): boolean {
    if (index < 0 || index >= BITMAP_LIMIT) {
      const key = `${index}:${repeat}`;
      if (this.#other.has(key)) return true;
      this.#other.add(key);
      return false;
    }
    let bits = this.#bits.get(repeat);
    const byte = index >>> 3;
    if (bits === undefined || bits.length <= byte) {
      const grown = new Uint8Array(Math.max(byte + 1, (bits?.length ?? 0) * 2, 1024));
      if (bits !== undefined) grown.set(bits);
      bits = grown;
      this.#bits.set(repeat, bits);
    }
    const bit = 1 << (index & 7);
    const was = ((bits[byte] as number) & bit) !== 0;
    bits[byte] = (bits[byte] as number) | bit;
    return was;
  }
}
