import type { DatasetRow } from '../dataset/types.js';
import { rowKey } from '../store/index.js';

export interface WorkItem {
  row: DatasetRow;
  repeat: number;
}

/** Expands rows into row × repeat items, skipping those an earlier attempt already finished. */
export async function* workItems(
  rows: AsyncIterable<DatasetRow>,
  repeat: number,
  done: ReadonlySet<string>,
  onlyIndexes?: ReadonlySet<number>,
): AsyncGenerator<WorkItem> {
  for await (const row of rows) {
    if (onlyIndexes && !onlyIndexes.has(row.index)) continue;
    for (let r = 0; r < repeat; r++) {
      if (done.has(rowKey(row.index, r))) continue;
      yield { row, repeat: r };
    }
  }
}
