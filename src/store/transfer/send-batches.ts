import { batchFrom, batchUpTo } from '../line-batch.js';
import type { RunStorage } from '../storage.js';

/** Both ends of a copy that move lines as bytes: a source that reads them so, a target that takes them so. */
export function sendsBatches(from: RunStorage, to: RunStorage): boolean {
  return from.readLineBatches !== undefined && to.appendLineBatch !== undefined;
}

/**
 * Sends the run's lines from place `start` on as batches of bytes (the results file's, never
 * decoded), one batch in flight while the next is read; the lines before `start` (an earlier copy
 * stored them) are read too when the target notes them, so its completion checks every line where
 * it is stored. Returns how many lines the target holds after.
 */
export async function sendBatches(from: RunStorage, to: RunStorage, id: string, start: number, onSent: (stored: number) => void): Promise<number> {
  const read = from.readLineBatches?.bind(from);
  const append = to.appendLineBatch?.bind(to);
  if (read === undefined || append === undefined) throw new Error('sendBatches: a source with readLineBatches and a target with appendLineBatch expected');
  const note = to.noteStoredBatch?.bind(to);
  let stored = start;
  let inFlight: Promise<void> = Promise.resolve();
  for await (const batch of read(id, note === undefined ? start : 0)) {
    let sending = batch;
    if (batch.first < start && note !== undefined) {
      note(id, batchUpTo(batch, start - batch.first));
      if (batch.first + batch.count <= start) continue;
      sending = batchFrom(batch, start - batch.first);
    }
    await inFlight;
    const lines = sending;
    inFlight = append(id, lines).then(() => {
      stored += lines.count;
      onSent(stored);
    });
    // A failed batch fails the copy as soon as it is awaited; never an unhandled rejection meanwhile.
    inFlight.catch(() => undefined);
  }
  await inFlight;
  return stored;
}
