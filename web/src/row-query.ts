import { ROW_ERRORED, ROW_FAILED, type RowIndex } from './api.js';

export type RowFilter = 'all' | 'failed' | 'errored' | 'flaky' | 'flipped';

export interface RowQuery {
  filter: RowFilter;
  /** Only rows with this verdict on this eval. */
  evalIndex?: number;
  verdict?: string;
  /** `position` keeps finish order; `index` dataset order; `eval:N` eval N's score. */
  sort: 'position' | 'index' | 'latency' | 'cost' | `eval:${number}`;
  descending: boolean;
  /** Positions matching the search text, when there is one. */
  matches?: ReadonlySet<number>;
}

export const defaultQuery: RowQuery = { filter: 'all', sort: 'index', descending: false };

/** The column a sort reads; null entries go last. */
function sortColumn(columns: RowIndex, sort: RowQuery['sort']): ReadonlyArray<number | null> | undefined {
  if (sort === 'latency') return columns.latencyMs;
  if (sort === 'cost') return columns.costUsd;
  if (sort.startsWith('eval:')) return columns.scores[Number(sort.slice(5))] ?? [];
  return undefined;
}

/**
 * The positions the table shows, in order. Rows without a value for the sort key go last either
 * way, so "highest latency first" never opens on cached rows.
 */
export function applyQuery(columns: RowIndex, count: number, query: RowQuery, flaky: ReadonlySet<number>, flipped?: ReadonlyMap<number, unknown>): number[] {
  const positions: number[] = [];
  const names = columns.evalNames.length;
  const filtering = query.filter !== 'all' || (query.evalIndex !== undefined && query.verdict !== undefined) || query.matches !== undefined;
  for (let p = 0; p < count; p++) {
    if (filtering) {
      const flags = columns.flags[p] as number;
      if (query.filter === 'failed' && !(flags & ROW_FAILED)) continue;
      if (query.filter === 'errored' && !(flags & ROW_ERRORED)) continue;
      if (query.filter === 'flaky' && !flaky.has(columns.index[p] as number)) continue;
      if (query.filter === 'flipped' && !flipped?.has(p)) continue;
      if (query.evalIndex !== undefined && query.verdict !== undefined && columns.verdicts[p * names + query.evalIndex] !== query.verdict) continue;
      if (query.matches && !query.matches.has(p)) continue;
    }
    positions.push(p);
  }
  if (query.sort === 'position') return query.descending ? positions.reverse() : positions;
  const sign = query.descending ? -1 : 1;
  if (query.sort === 'index') {
    // Dataset order: rows usually finish nearly in order, and a run without concurrency exactly
    // so; one pass finds that and skips the sort.
    const { index, repeat } = columns;
    const key = (p: number): number => (index[p] as number) * 1e4 + (repeat[p] as number);
    let sorted = true;
    for (let i = 1; i < positions.length && sorted; i++) sorted = sign * (key(positions[i] as number) - key(positions[i - 1] as number)) > 0;
    return sorted ? positions : positions.sort((a, b) => sign * (key(a) - key(b)) || a - b);
  }
  const column = sortColumn(columns, query.sort) ?? [];
  const keys = new Float64Array(count);
  const missing = new Uint8Array(count);
  for (const p of positions) {
    const value = column[p];
    if (value === null || value === undefined) missing[p] = 1;
    else keys[p] = value;
  }
  return positions.sort((a, b) => missing[a]! - missing[b]! || sign * ((keys[a] as number) - (keys[b] as number)) || a - b);
}
