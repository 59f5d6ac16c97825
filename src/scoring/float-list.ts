/**
 * Numbers in a Float64Array that doubles as it fills: 8 bytes each, outside the JS heap (which a
 * long run's growth factor would multiply), and no copy of a JS array growing past a million.
 */
export class FloatList {
  #data = new Float64Array(256);
  #count = 0;

  get length(): number {
    return this.#count;
  }

  push(value: number): void {
    if (this.#count === this.#data.length) {
      const grown = new Float64Array(this.#data.length * 2);
      grown.set(this.#data);
      this.#data = grown;
    }
    this.#data[this.#count++] = value;
  }

  /** The numbers so far (a view: it changes with later pushes until the list grows). */
  values(): Float64Array {
    return this.#data.subarray(0, this.#count);
  }
}
