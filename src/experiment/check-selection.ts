import type { RowSelection } from '../dataset/types.js';
import { UsageError } from '../errors/index.js';

/**
 * Raises `--rows`' out-of-range usage error before a run is created, so a typo never leaves an
 * empty run folder and a summary behind (selectRows would only find out once rows stream).
 * An empty dataset is left to readDataset, whose error says more.
 */
export function checkSelection(selection: RowSelection | undefined, rows: number): void {
  if (selection?.kind !== 'rows' || rows === 0) return;
  const last = Math.max(...selection.ranges.map(([, end]) => end));
  if (last < rows) return;
  throw new UsageError(
    'USAGE_ROWS_OUT_OF_RANGE',
    `--rows asks for row ${last} but the dataset has only ${rows} row${rows === 1 ? '' : 's'} (indexes 0-${rows - 1})`,
    { hint: 'row indexes are zero-based and count non-blank lines' },
  );
}
