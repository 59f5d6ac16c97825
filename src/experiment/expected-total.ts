import { percentOfRows } from '../dataset/index.js';
import type { RowSelection } from '../dataset/types.js';

/** Rows a selection will yield from a file of `rows` rows; NaN when it can't be known up front. */
export function expectedTotal(selection: RowSelection | undefined, rows: number, only?: ReadonlySet<number>): number {
  if (only) return [...only].filter((i) => i < rows).length;
  if (!selection || selection.kind === 'all') return rows;
  if (selection.kind === 'sample' || selection.kind === 'limit') return Math.min(selection.count, rows);
  if (selection.kind === 'percent') return percentOfRows(rows, selection.percent);
  if (selection.kind === 'split' && selection.seed === undefined) {
    const train = percentOfRows(rows, selection.percent);
    return selection.name === 'train' ? train : rows - train;
  }
  if (selection.kind === 'rows') {
    const picked = new Set<number>();
    for (const [from, to] of selection.ranges) {
      for (let i = from; i <= Math.min(to, rows - 1); i++) picked.add(i);
    }
    return picked.size;
  }
  return NaN;
}
