/** A Float64Array that grows by doubling: 8 bytes a value, no boxed numbers. */
export class Growable {
  private data = new Float64Array(1024);
  private count = 0;

  push(value: number): void {
    if (this.count === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.count++] = value;
  }

  get length(): number {
    return this.count;
  }

  values(): Float64Array {
    return this.data.subarray(0, this.count);
  }
}
