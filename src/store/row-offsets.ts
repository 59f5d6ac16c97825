/**
 * Where each row of a results file sits, kept as the rows are appended: four numbers a row
 * (index, repeat, byte offset, byte length) in one growing Float64Array, 32 bytes a row. Reports
 * that list every row in dataset order read them back through it instead of holding the rows.
 */
export class RowOffsets {
  private data = new Float64Array(4 * 1024);
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(index: number, repeat: number, start: number, length: number): void {
    if (4 * (this.count + 1) > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data.set([index, repeat, start, length], 4 * this.count);
    this.count += 1;
  }

  /** Forgets every row after the first `count` (rows whose write failed). */
  truncate(count: number): void {
    this.count = Math.max(0, Math.min(count, this.count));
  }

  /** `[start, length]` of every row, in dataset order (index, then repeat). */
  *inOrder(): Generator<[start: number, length: number]> {
    const data = this.data;
    for (const i of this.#order()) yield [data[4 * i + 2] as number, data[4 * i + 3] as number];
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
    const data = this.data;
    const order = Uint32Array.from({ length: this.count }, (_, i) => i);
    order.sort((a, b) => (data[4 * a] as number) - (data[4 * b] as number) || (data[4 * a + 1] as number) - (data[4 * b + 1] as number));
    return order;
  }
}
