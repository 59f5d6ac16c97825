/**
 * Where each row of a results file sits, kept as the rows are appended: four numbers a row
 * (index, repeat, byte offset, byte length) in one growing Float64Array, 32 bytes a row. Reports
 * that list every row in dataset order read them back through it instead of holding the rows.
 */
export class RowOffsets {
  private data = new Float64Array(4 * 1024);
  private count = 0;
  /** The dataset order, kept until a row is added or dropped (a report reads the rows twice). */
  #sorted: Uint32Array | undefined;

  get size(): number {
    return this.count;
  }

  add(index: number, repeat: number, start: number, length: number): void {
    if (4 * (this.count + 1) > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const at = 4 * this.count;
    this.data[at] = index;
    this.data[at + 1] = repeat;
    this.data[at + 2] = start;
    this.data[at + 3] = length;
    this.count += 1;
    this.#sorted = undefined;
  }

  /** Forgets every row after the first `count` (rows whose write failed). */
  truncate(count: number): void {
    this.count = Math.max(0, Math.min(count, this.count));
    this.#sorted = undefined;
  }

  /** `[start, length]` of every row, in dataset order (index, then repeat). */
  *inOrder(): Generator<[start: number, length: number]> {
    const data = this.data;
    for (const i of this.#order()) yield [data[4 * i + 2] as number, data[4 * i + 3] as number];
  }

  /**
   * The same order without a tuple per row, for a reader walking a million rows (`merge`): the
   * i-th row in dataset order is position `order[i]`, whose index, repeat, start and length are
   * `data[4 * p]` … `data[4 * p + 3]`. Both are the object's own arrays: read them, never write.
   */
  ordered(): { order: Uint32Array; data: Float64Array } {
    return { order: this.#order(), data: this.data };
  }

  /** `[index, repeat]` of a row added twice, if there is one (the first in dataset order). */
  duplicate(): [index: number, repeat: number] | undefined {
    const data = this.data;
    let previous: number | undefined;
    for (const i of this.#order()) {
      if (previous !== undefined && data[4 * i] === data[4 * previous] && data[4 * i + 1] === data[4 * previous + 1]) {
        return [data[4 * i] as number, data[4 * i + 1] as number];
      }
      previous = i;
    }
    return undefined;
  }

  #order(): Uint32Array {
    this.#sorted ??= this.#packedOrder() ?? this.#comparedOrder();
    return this.#sorted;
  }

  /**
   * The order by one native numeric sort: each row as (index × repeats + repeat) × rows + its
   * position, exact while that stays below 2^53 (a million rows of 1,000 repeats each is far
   * below), and ties impossible. A comparator sort of a million rows took ~1 s.
   */
  #packedOrder(): Uint32Array | undefined {
    const { data, count } = this;
    let maxIndex = 0;
    let maxRepeat = 0;
    for (let i = 0; i < count; i += 1) {
      const index = data[4 * i] as number;
      const repeat = data[4 * i + 1] as number;
      if (!Number.isInteger(index) || !Number.isInteger(repeat) || index < 0 || repeat < 0) return undefined;
      if (index > maxIndex) maxIndex = index;
      if (repeat > maxRepeat) maxRepeat = repeat;
    }
    const repeats = maxRepeat + 1;
    if ((maxIndex + 1) * repeats * Math.max(count, 1) >= Number.MAX_SAFE_INTEGER) return undefined;
    const packed = new Float64Array(count);
    for (let i = 0; i < count; i += 1) packed[i] = ((data[4 * i] as number) * repeats + (data[4 * i + 1] as number)) * count + i;
    packed.sort();
    const order = new Uint32Array(count);
    for (let i = 0; i < count; i += 1) order[i] = (packed[i] as number) % count;
    return order;
  }

  #comparedOrder(): Uint32Array {
    const data = this.data;
    const order = Uint32Array.from({ length: this.count }, (_, i) => i);
    order.sort((a, b) => (data[4 * a] as number) - (data[4 * b] as number) || (data[4 * a + 1] as number) - (data[4 * b + 1] as number));
    return order;
  }
}
