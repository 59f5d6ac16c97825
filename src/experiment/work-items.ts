import type { DatasetRow } from '../dataset/types.js';
import type { RowKeySet } from '../store/index.js';

export interface WorkItem {
  row: DatasetRow;
  repeat: number;
}

/** Expands rows into row × repeat items, skipping those an earlier attempt already finished. */
export async function* workItems(
  rows: AsyncIterable<DatasetRow>,
  repeat: number,
  done: Pick<RowKeySet, 'has'>,
  onlyIndexes?: ReadonlySet<number>,
): AsyncGenerator<WorkItem> {
  for await (const row of rows) {
    if (onlyIndexes && !onlyIndexes.has(row.index)) continue;
    for (let r = 0; r < repeat; r++) {
      if (done.has(row.index, r)) continue;
      yield { row, repeat: r };
    }
  }
}
