import { rowLabels } from '../dataset/row-labels.js';
import type { RowResult } from '../experiment/types.js';

/**
 * `3`, or `3.1` (index.repeat) when the run has repeats, then the row's name and tags when it
 * has them, and `(warm-up)` for a warm-up call: `3 refund-basic [smoke,billing]`.
 */
export function rowLabel(row: RowResult, withRepeat: boolean): string {
  const { name, tags } = rowLabels(row.metadata);
  const index = withRepeat ? `${row.index}.${row.repeat}` : String(row.index);
  const warmup = row.warmup ? ['(warm-up)'] : [];
  return [index, ...(name === undefined ? [] : [name]), ...(tags.length === 0 ? [] : [`[${tags.join(',')}]`]), ...warmup].join(' ');
}
