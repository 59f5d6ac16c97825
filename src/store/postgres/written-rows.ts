/**
 * The places of a run this process COPYed rows to, and the transactions that committed them: a
 * row whose `xmin` is one of those transactions is one this process inserted, unchanged since
 * (an UPDATE writes a new row version with another xmin; a DELETE hides it), and so holds the
 * bytes that were sent from it, which the given lines' hashes already cover.
 */
export class WrittenRows {
  readonly #xids = new Set<string>();
  /** [first, end) spans of places, in the order written, adjacent ones merged. */
  readonly #spans: Array<[number, number]> = [];
  #count = 0;

  /** Rows written, at places first..first + count - 1, by the transaction `xid` (pg_current_xact_id(): 64 bits, as text). */
  add(first: number, count: number, xid: string): void {
    if (count <= 0) return;
    // xmin is the 32-bit xid: the low half of the 64-bit one.
    this.#xids.add((BigInt(xid) & 0xffffffffn).toString());
    this.#count += count;
    const last = this.#spans[this.#spans.length - 1];
    if (last !== undefined && last[1] === first) last[1] = first + count;
    else this.#spans.push([first, first + count]);
  }

  /** Takes what `other` holds (written after what this holds). */
  merge(other: WrittenRows): void {
    for (const xid of other.#xids) this.#xids.add(xid);
    for (const [from, to] of other.#spans) {
      const last = this.#spans[this.#spans.length - 1];
      if (last !== undefined && last[1] === from) last[1] = to;
      else this.#spans.push([from, to]);
    }
    this.#count += other.#count;
  }

  /** How many rows were written. */
  get count(): number {
    return this.#count;
  }

  /** The transactions' 32-bit xids, as text (what `xmin::text` gives). */
  xids(): string[] {
    return [...this.#xids];
  }

  /** Whether every place in [first, end) was written here. */
  covers(first: number, end: number): boolean {
    let at = first;
    for (const [from, to] of this.#spans) {
      if (from <= at && at < to) at = to;
      if (at >= end) return true;
    }
    return at >= end;
  }
}
