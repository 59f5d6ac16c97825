import { lineStart, type LineBatch } from './line-batch.js';
import { keyOfLine } from './scan-results.js';

/** The (index, repeat) of each line of a batch, read once for the rows sent and the duplicate check. */
export interface LineKeys {
  readonly index: Float64Array;
  readonly repeat: Float64Array;
}

/** Every line's key; STORE_CORRUPT_RESULTS naming the batch's file and the line when one is not a result row. */
export function lineKeys(batch: LineBatch): LineKeys {
  const index = new Float64Array(batch.count);
  const repeat = new Float64Array(batch.count);
  for (let k = 0; k < batch.count; k += 1) {
    const [i, r] = keyOfLine(batch.bytes, lineStart(batch, k), batch.ends[k] as number, batch.file, batch.first + k + 1);
    index[k] = i;
    repeat[k] = r;
  }
  return { index, repeat };
}

/** The keys of lines `skip` to `skip + count` - 1 (views, not copies). */
export function keysSlice(keys: LineKeys, skip: number, count: number): LineKeys {
  return { index: keys.index.subarray(skip, skip + count), repeat: keys.repeat.subarray(skip, skip + count) };
}
