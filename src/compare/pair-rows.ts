import type { ReducedRow } from './reduce-rows.js';
import { sameContent } from './same-content.js';

export interface PairedRows {
  base: ReducedRow;
  head: ReducedRow;
}

/** Rows of one run that found no partner: counted, and the first few kept to list. */
export interface Unpaired {
  count: number;
  first: ReducedRow[];
}

/** A FIFO of waiting rows per identity: the k-th copy of a duplicated row pairs with the k-th. */
class Waiting {
  private readonly byKey = new Map<string, ReducedRow[]>();

  get size(): number {
    return this.byKey.size;
  }

  take(key: string): ReducedRow | undefined {
    const queue = this.byKey.get(key);
    if (!queue) return undefined;
    const row = queue.shift();
    if (queue.length === 0) this.byKey.delete(key);
    return row;
  }

  put(row: ReducedRow): void {
    const queue = this.byKey.get(row.key);
    if (queue) queue.push(row);
    else this.byKey.set(row.key, [row]);
  }

  *drain(): Generator<ReducedRow> {
    for (const queue of this.byKey.values()) yield* queue;
  }
}

/**
 * Pairs two runs' rows by identity while reading both streams in step. A row waits only until
 * its partner arrives from the other side, so two runs of the same dataset hold one row at a
 * time; rows that do not line up (a reordered or changed dataset) wait, and memory grows with
 * them. Duplicated rows pair in dataset order (the row index breaks the tie). Whatever is still
 * waiting at the end is in one run only.
 */
export async function* pairRows(
  base: AsyncIterator<ReducedRow>,
  head: AsyncIterator<ReducedRow>,
  unpaired: { base: Unpaired; head: Unpaired },
  keepUnpaired: number,
): AsyncGenerator<PairedRows> {
  const waitingBase = new Waiting();
  const waitingHead = new Waiting();
  let baseDone = false;
  let headDone = false;
  while (!baseDone || !headDone) {
    if (!baseDone && !headDone && waitingBase.size === 0 && waitingHead.size === 0) {
      // In step, nothing waiting: the two rows pair when their contents are equal, as the
      // steps below would pair them, without writing either row's identity text.
      const b = await base.next();
      const h = await head.next();
      if (!b.done && !h.done && sameContent(b.value.first, h.value.first)) {
        yield { base: b.value, head: h.value };
        continue;
      }
      if (b.done) baseDone = true;
      else {
        const partner = waitingHead.take(b.value.key);
        if (partner) yield { base: b.value, head: partner };
        else waitingBase.put(b.value);
      }
      if (h.done) headDone = true;
      else {
        const partner = waitingBase.take(h.value.key);
        if (partner) yield { base: partner, head: h.value };
        else waitingHead.put(h.value);
      }
      continue;
    }
    if (!baseDone) {
      const next = await base.next();
      if (next.done) baseDone = true;
      else {
        const partner = waitingHead.take(next.value.key);
        if (partner) yield { base: next.value, head: partner };
        else waitingBase.put(next.value);
      }
    }
    if (!headDone) {
      const next = await head.next();
      if (next.done) headDone = true;
      else {
        const partner = waitingBase.take(next.value.key);
        if (partner) yield { base: partner, head: next.value };
        else waitingHead.put(next.value);
      }
    }
  }
  for (const [side, waiting] of [[unpaired.base, waitingBase], [unpaired.head, waitingHead]] as const) {
    const rows = [...waiting.drain()].sort((a, b) => a.index - b.index);
    side.count = rows.length;
    side.first = rows.slice(0, keepUnpaired);
  }
}
